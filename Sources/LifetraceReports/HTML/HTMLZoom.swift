/// The page's zoom and pan, inline. It puts `−`, `+` and `Reset` buttons above every timeline
/// (a page read without script has no dead buttons); dragging a timeline pans it, Ctrl+wheel (or
/// a double click) zooms around the pointer.
///
/// A timeline whose window kept its spans (`data-spans`, see ``TimelineSVG``) is drawn again
/// from them at every zoom, down to ``finestNanosecondsPerPixel`` per pixel: what was a shaded
/// bucket becomes the callbacks, signposts and states themselves, each with its name and times.
/// Other timelines (a whole trace of many spans) are magnified, up to ``magnifiedMaximum`` times.
/// Either way, what carries a time (stalls, launch windows, milestones, violation pins:
/// `data-t`) is placed by it, and the axis is drawn again with ticks written to the precision
/// their step needs, the same rule as the report's own (``AxisFormat/label(_:step:)``). It
/// fetches nothing.
public enum HTMLZoom {
    /// The largest zoom factor of a timeline that is magnified rather than drawn again.
    public static let magnifiedMaximum = 16
    /// The finest scale a timeline drawn again from its spans zooms to.
    public static let finestNanosecondsPerPixel = 100

    /// The CSS the zoom uses.
    public static let style = """
        p.zoom{margin:2px 0;font-size:12px;color:#555}p.zoom button{font:inherit;min-width:2.2em;margin-right:4px}
        svg.timeline[data-zoom]{cursor:grab}svg.timeline.zoomed .coarse{display:none}
        svg.timeline.detailed .bucketed{display:none}svg.timeline line.fine{stroke:#eee}

        """

    /// The script element.
    public static let script = """
        <script>
        (function () {
          var magnified = \(magnifiedMaximum), finest = \(finestNanosecondsPerPixel);
          var units = [[1e9, 's'], [1e6, 'ms'], [1e3, '\\u00b5s'], [1, 'ns']];
          // AxisFormat.step: 1, 2 or 5 times a power of ten (ns, at least 1 us) cutting `span` into about `parts`.
          function step(span, parts) {
            var raw = Math.max(1000, Math.floor(span / Math.max(1, parts))), power = 1;
            while (power <= raw / 10) power *= 10;
            for (var i = 0, f = [1, 2, 5, 10]; i < f.length; i++) if (power * f[i] >= raw) return power * f[i];
            return power * 10;
          }
          // DecimalText.string(scaled:decimals:): `scaled` with its last `decimals` digits after the point.
          function decimal(scaled, decimals) {
            var text = String(scaled);
            if (decimals === 0) return text;
            while (text.length <= decimals) text = '0' + text;
            return text.slice(0, text.length - decimals) + '.' + text.slice(text.length - decimals);
          }
          // AxisFormat.label (TraceClock.moment(_:resolution:)): seconds, to the digit of the largest
          // power of ten not above `resolution`, truncated; `0` at the origin.
          function label(ns, resolution) {
            ns = Math.round(ns);
            if (ns === 0) return '0';
            var digit = 1e9, decimals = 0;
            while (digit > 1 && digit > resolution) { digit /= 10; decimals += 1; }
            return (ns < 0 ? '-' : '+') + decimal(Math.floor(Math.abs(ns) / digit), decimals) + ' s';
          }
          // DurationFormat.fixed: the largest unit reached, truncated; whole ns, us and ms, seconds to the
          // millisecond; given a `resolution`, to the digit of the largest power of ten not above it.
          function duration(ns, resolution) {
            ns = Math.floor(Math.abs(ns));
            var i = 0;
            while (i < 3 && ns < units[i][0]) i++;
            var unit = units[i][0], digit = resolution === undefined && i === 0 ? 1e6 : unit, decimals = 0;
            if (resolution !== undefined) while (digit > 1 && digit > resolution) digit /= 10;
            for (var scale = unit; scale > digit; scale /= 10) decimals += 1;
            return decimal(Math.floor(ns / digit), decimals) + ' ' + units[i][1];
          }
          Array.prototype.forEach.call(document.querySelectorAll('svg.timeline[data-plot]'), function (svg) {
            var plot = svg.querySelector('g.plot');
            if (!plot) return;
            var edges = svg.getAttribute('data-plot').split(' ').map(Number), left = edges[0], width = edges[1];
            var time = (svg.getAttribute('data-time') || '1 0').split(' ').map(Number), span = time[0], offset = time[1];
            var ns = svg.namespaceURI, bottom = Number(svg.getAttribute('height')) - 4;
            var lanes = (svg.getAttribute('data-lanes') || '').split(' ');
            var names = svg.hasAttribute('data-names') ? JSON.parse(svg.getAttribute('data-names')) : [];
            var spans = (svg.getAttribute('data-spans') || '').split(';').filter(Boolean).map(function (entry) {
              var p = entry.split(',').map(Number);
              return { lane: p[0], start: p[1] * 1000, end: (p[1] + p[2]) * 1000, name: p[3], state: p[4] };
            });
            var detailed = spans.length > 0;
            var maximum = detailed ? Math.max(magnified, span / (width * finest)) : magnified;
            var items = Array.prototype.slice.call(plot.querySelectorAll('rect, text, line, path')).map(function (element) {
              var item = { element: element, kind: element.tagName.toLowerCase() };
              if (element.hasAttribute('data-t')) {
                item.t = Number(element.getAttribute('data-t'));
                item.t2 = element.hasAttribute('data-t2') ? Number(element.getAttribute('data-t2')) : item.t;
                item.dx = Number(element.getAttribute('data-dx') || (item.kind === 'text' ? 2 : 0));
              } else if (detailed && !element.classList.contains('coarse')) {
                element.classList.add('bucketed');
              }
              if (item.kind === 'rect' || item.kind === 'text') item.x = Number(element.getAttribute('x'));
              if (item.kind === 'rect') item.width = Number(element.getAttribute('width'));
              if (item.kind === 'line') { item.x = Number(element.getAttribute('x1')); item.x2 = Number(element.getAttribute('x2')); }
              if (item.kind === 'path') item.x = Number((/^M([-0-9.]+)/.exec(element.getAttribute('d')) || [0, 0])[1]);
              return item;
            });
            // Ticks behind everything; the spans above the launch windows, milestones and axis, as the rows are.
            var axis = document.createElementNS(ns, 'g'), layer = document.createElementNS(ns, 'g');
            axis.setAttribute('class', 'ticks');
            layer.setAttribute('class', 'detail');
            var firstRow = Array.prototype.filter.call(plot.children, function (element) {
              return !element.matches('rect.launch, line.milestone, text.milestone, .coarse');
            })[0] || null;
            plot.insertBefore(layer, firstRow);
            plot.insertBefore(axis, plot.firstChild);
            var view = { zoom: 1, from: 0 };
            function px(t) { return left + (t / span * width - view.from) * view.zoom; }
            function add(name, attributes, title, into) {
              var element = document.createElementNS(ns, name);
              for (var key in attributes) element.setAttribute(key, attributes[key]);
              if (title) { var t = document.createElementNS(ns, 'title'); t.textContent = title; element.appendChild(t); }
              (into || layer).appendChild(element);
              return element;
            }
            function drawTicks(zoomed) {
              if (!zoomed) return;
              var from = view.from / width * span, to = from + span / view.zoom;
              var tickStep = step(to - from, Math.max(2, Math.min(10, Math.floor(width / 110))));
              for (var tick = Math.ceil((from + offset) / tickStep) * tickStep; tick <= to + offset; tick += tickStep) {
                var x = px(tick - offset);
                add('line', { 'class': 'tick fine', x1: x, x2: x, y1: 12, y2: bottom }, null, axis);
                var text = label(tick, tickStep), end = x + 2 + text.length * 6 > left + width + 10;
                // A label that would run past the plot's right edge ends at its tick, as the report's own do.
                add('text', end ? { 'class': 'axis fine', x: x - 2, y: 10, 'text-anchor': 'end' } : { 'class': 'axis fine', x: x + 2, y: 10 },
                  null, axis).textContent = text;
              }
            }
            function drawSpans() {
              var from = view.from / width * span, to = from + span / view.zoom, last = {};
              spans.forEach(function (s) {
                if (s.end < from || s.start > to) return;
                var kind = lanes[s.lane] || 'cb', y = \(TimelineSVG.axisHeight) + s.lane * \(TimelineSVG.rowHeight) + 2;
                var x0 = Math.max(left - 1, px(s.start)), x1 = Math.min(left + width + 1, px(s.end));
                var instant = kind === 'mark' || kind === 'frame';
                if (instant) x1 = x0 + 1;
                var css = kind === 's' ? 's' + s.state : (instant ? kind : kind + ' o4');
                var previous = last[s.lane];
                // Neighbours within a pixel of one kind share a rectangle, as the buckets do.
                if (previous && previous.css === css && x1 - x0 < 1 && x0 <= previous.x1 + 0.5) {
                  previous.x1 = Math.max(previous.x1, x1);
                  previous.count += 1;
                  previous.element.setAttribute('width', Math.max(1, previous.x1 - previous.x0));
                  previous.title.textContent = previous.count + ' spans from ' + label(previous.start + offset, 1000);
                  return;
                }
                var name = names[s.name] || '';
                var title = (name ? name + ': ' : '') + duration(s.end - s.start) + ', ' +
                  label(s.start + offset, 1000) + ' to ' + label(s.end + offset, 1000);
                var rect = add('rect', { 'class': css, x: x0, y: y, width: Math.max(1, x1 - x0), height: \(TimelineSVG.rowHeight - 4) }, title);
                last[s.lane] = { css: css, x0: x0, x1: x1, count: 1, element: rect, title: rect.firstChild, start: s.start };
                if (!instant && kind !== 's' && kind !== 'busy' && name && name.length * 6.6 + 6 <= x1 - x0) {
                  add('text', { 'class': 'barname', x: x0 + 3, y: y + 9 }).textContent = name;
                }
              });
            }
            function draw() {
              view.zoom = Math.max(1, Math.min(maximum, view.zoom));
              view.from = Math.max(0, Math.min(width - width / view.zoom, view.from));
              var zoomed = view.zoom > 1, redrawn = detailed && zoomed;
              items.forEach(function (item) {
                var element = item.element;
                if (item.t !== undefined) {
                  var a = px(item.t), b = px(item.t2);
                  if (item.kind === 'rect') { element.setAttribute('x', a); element.setAttribute('width', Math.max(item.kind === 'rect' && element.classList.contains('stall') ? 2 : 1, b - a)); }
                  if (item.kind === 'text') element.setAttribute('x', a + item.dx);
                  if (item.kind === 'line') { element.setAttribute('x1', a); element.setAttribute('x2', a); }
                  if (item.kind === 'path') element.setAttribute('transform', 'translate(' + (a - item.x) + ' 0)');
                  return;
                }
                if (redrawn) return;
                if (item.kind === 'rect' || item.kind === 'text') element.setAttribute('x', left + (item.x - left - view.from) * view.zoom);
                if (item.kind === 'rect') element.setAttribute('width', item.width * view.zoom);
                if (item.kind === 'line') {
                  element.setAttribute('x1', left + (item.x - left - view.from) * view.zoom);
                  element.setAttribute('x2', left + (item.x2 - left - view.from) * view.zoom);
                }
                if (item.kind === 'path') element.setAttribute('transform', 'translate(' + (left + (item.x - left - view.from) * view.zoom - item.x) + ' 0)');
              });
              while (layer.firstChild) layer.removeChild(layer.firstChild);
              while (axis.firstChild) axis.removeChild(axis.firstChild);
              drawTicks(zoomed);
              if (redrawn) drawSpans();
              svg.classList.toggle('zoomed', zoomed);
              svg.classList.toggle('detailed', redrawn);
              svg.setAttribute('data-zoom', view.zoom);
              svg.setAttribute('data-from', view.from);
              var shown = span / view.zoom;
              note.textContent = zoomed ? ' ' + duration(shown) + ' shown, ' + duration(shown / width, Math.floor(shown / width / 1000)) + ' per pixel' +
                (detailed ? ', drawn from the spans' : ', magnified') : '';
              document.dispatchEvent(new CustomEvent('lifetrace-redraw'));
            }
            // Zooms by `factor` keeping the plot position `at` (px from the plot's left edge) in place.
            function zoom(factor, at) {
              var anchor = view.from + at / view.zoom;
              view.zoom = Math.max(1, Math.min(maximum, view.zoom * factor));
              view.from = anchor - at / view.zoom;
              draw();
            }
            function pointer(event) {
              var box = svg.getBoundingClientRect();
              return (event.clientX - box.left) * Number(svg.getAttribute('width')) / (box.width || 1) - left;
            }
            var bar = document.createElement('p');
            bar.className = 'zoom';
            bar.innerHTML = '<button type="button" class="zoom-out" title="zoom out">\\u2212</button>' +
              '<button type="button" class="zoom-in" title="zoom in">+</button>' +
              '<button type="button" class="zoom-reset">Reset</button>' +
              'drag to pan, Ctrl+wheel or double click to zoom' +
              (detailed ? ' (drawn again from the spans, down to microseconds)' : ' (magnified: the zoomed views below have the detail)') +
              '<span class="zoom-note"></span>';
            var note = bar.querySelector('.zoom-note');
            var holder = svg.parentNode.classList.contains('scroll') ? svg.parentNode : svg;
            holder.parentNode.insertBefore(bar, holder);
            bar.querySelector('.zoom-in').addEventListener('click', function () { zoom(2, width / 2); });
            bar.querySelector('.zoom-out').addEventListener('click', function () { zoom(0.5, width / 2); });
            bar.querySelector('.zoom-reset').addEventListener('click', function () { view.zoom = 1; view.from = 0; draw(); });
            svg.addEventListener('wheel', function (event) {
              if (!event.ctrlKey && !event.metaKey) return;
              event.preventDefault();
              zoom(event.deltaY < 0 ? 1.25 : 0.8, pointer(event));
            }, { passive: false });
            svg.addEventListener('dblclick', function (event) { zoom(event.shiftKey ? 0.5 : 2, pointer(event)); });
            var drag = null;
            svg.addEventListener('mousedown', function (event) {
              if (event.button !== 0 || view.zoom === 1) return;
              drag = { x: event.clientX, from: view.from, scale: Number(svg.getAttribute('width')) / (svg.getBoundingClientRect().width || 1) };
              event.preventDefault();
            });
            window.addEventListener('mousemove', function (event) {
              if (!drag) return;
              view.from = drag.from - (event.clientX - drag.x) * drag.scale / view.zoom;
              draw();
            });
            window.addEventListener('mouseup', function () { drag = null; });
            draw();
          });
        })();
        </script>

        """
}
