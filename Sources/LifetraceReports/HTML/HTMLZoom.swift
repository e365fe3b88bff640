/// The page's zoom and pan, inline. It puts `−`, `+` and `Reset` buttons above every timeline
/// (a page read without script has no dead buttons); dragging a timeline pans it, Ctrl+wheel (or
/// a double click) zooms around the pointer, up to ``maximum`` times. Zooming moves and widens
/// what the report drew (the rectangles, lines, pins and names in the timeline's `g.plot`), clipped
/// to the plot: the pixel buckets are magnified, not recomputed, so a zoomed view shows no more
/// detail than its buckets hold; the launch and stall views below are drawn at their own scale.
/// The axis switches to the finer ticks the report wrote in `data-ticks`, keeping every first,
/// second, fifth... one so that labels stay apart. It fetches nothing.
public enum HTMLZoom {
    /// The largest zoom factor.
    public static let maximum = 16

    /// The CSS the zoom uses.
    public static let style = """
        p.zoom{margin:2px 0;font-size:12px;color:#555}p.zoom button{font:inherit;min-width:2.2em;margin-right:4px}
        svg.timeline[data-zoom]{cursor:grab}svg.timeline.zoomed .coarse{display:none}
        svg.timeline line.fine{stroke:#eee}

        """

    /// The script element.
    public static let script = """
        <script>
        (function () {
          var maximum = \(maximum);
          Array.prototype.forEach.call(document.querySelectorAll('svg.timeline[data-plot]'), function (svg) {
            var plot = svg.querySelector('g.plot');
            if (!plot) return;
            var edges = svg.getAttribute('data-plot').split(' ').map(Number), left = edges[0], width = edges[1];
            var ns = svg.namespaceURI, bottom = Number(svg.getAttribute('height')) - 4;
            var ticks = (svg.getAttribute('data-ticks') || '').split(';').filter(Boolean).map(function (entry) {
              var parts = entry.split(','), x = left + Number(parts[0]);
              var line = document.createElementNS(ns, 'line'), text = document.createElementNS(ns, 'text');
              line.setAttribute('class', 'tick fine'); line.setAttribute('x1', x); line.setAttribute('x2', x);
              line.setAttribute('y1', 12); line.setAttribute('y2', bottom);
              text.setAttribute('class', 'axis fine'); text.setAttribute('x', x + 2); text.setAttribute('y', 10);
              text.textContent = parts.slice(2).join(',');
              line.style.display = text.style.display = 'none';
              plot.insertBefore(text, plot.firstChild); plot.insertBefore(line, plot.firstChild);
              return { number: Number(parts[1]), line: line, text: text, gap: 0 };
            });
            var gap = ticks.length > 1 ? Number(ticks[1].line.getAttribute('x1')) - Number(ticks[0].line.getAttribute('x1')) : width;
            var items = Array.prototype.slice.call(plot.querySelectorAll('rect, text, line, path')).map(function (element) {
              var item = { element: element, kind: element.tagName.toLowerCase() };
              if (item.kind === 'rect' || item.kind === 'text') item.x = Number(element.getAttribute('x'));
              if (item.kind === 'rect') item.width = Number(element.getAttribute('width'));
              if (item.kind === 'line') { item.x = Number(element.getAttribute('x1')); item.x2 = Number(element.getAttribute('x2')); }
              if (item.kind === 'path') item.x = Number((/^M([-0-9.]+)/.exec(element.getAttribute('d')) || [0, 0])[1]);
              return item;
            });
            var view = { zoom: 1, from: 0 };
            function place(x) { return left + (x - left - view.from) * view.zoom; }
            function draw() {
              view.zoom = Math.max(1, Math.min(maximum, view.zoom));
              view.from = Math.max(0, Math.min(width - width / view.zoom, view.from));
              items.forEach(function (item) {
                var element = item.element;
                if (item.kind === 'rect' || item.kind === 'text') element.setAttribute('x', place(item.x));
                if (item.kind === 'rect') element.setAttribute('width', item.width * view.zoom);
                if (item.kind === 'line') { element.setAttribute('x1', place(item.x)); element.setAttribute('x2', place(item.x2)); }
                if (item.kind === 'path') element.setAttribute('transform', 'translate(' + (place(item.x) - item.x) + ' 0)');
              });
              var every = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].filter(function (n) { return gap * view.zoom * n >= 70; })[0] || 1000;
              ticks.forEach(function (tick) {
                var shown = view.zoom > 1 && tick.number % every === 0;
                tick.line.style.display = tick.text.style.display = shown ? '' : 'none';
              });
              svg.classList.toggle('zoomed', view.zoom > 1);
              svg.setAttribute('data-zoom', view.zoom);
              svg.setAttribute('data-from', view.from);
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
              'drag to pan, Ctrl+wheel or double click to zoom (the pixels are magnified, the zoomed views below have the detail)';
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
