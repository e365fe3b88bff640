/// The one script an HTML report carries, inline: find by name. It adds a search field above the
/// timelines (a page read without script has no dead field) and, as the user types, outlines every
/// bar, pin and label of the timelines whose name or tooltip holds the text, dims the others and
/// says how many match; `Next` and `Previous` (or Enter and Shift+Enter in the field) go from one
/// match to the next in page order, scroll it into view and outline it in red (`3 of 12`);
/// `#find=NAME` in the address does the same when the page opens. Bars a zoom draws again are
/// searched too (the zoom tells it with a `lifetrace-redraw` event). It fetches nothing and
/// changes nothing else: the page reads the same without it.
public enum HTMLSearch {
    /// The CSS the search uses.
    public static let style = """
        p.find input{font:inherit;padding:2px 6px;width:18em}p.find span{color:#555;font-size:12px;margin-left:8px}
        svg.timeline rect.hit,svg.timeline path.hit{stroke:#000;stroke-width:1.5px}text.hit{font-weight:700}
        body.finding svg.timeline rect:not(.hit):not(.launch),body.finding svg.timeline path:not(.hit){opacity:.2}
        svg.timeline rect.current,svg.timeline path.current{stroke:#d00;stroke-width:3px}p.find button{font:inherit;margin-left:4px}

        """

    /// The script element.
    public static let script = """
        <script>
        (function () {
          var legend = document.querySelector('.legend');
          if (!legend) return;
          var box = document.createElement('p');
          box.className = 'find';
          box.innerHTML = '<label>Find by name: <input type="search" id="find" autocomplete="off" ' +
            'placeholder="callback, signpost, mark, task"></label><span id="found"></span>';
          box.innerHTML += '<button type="button" class="find-previous" title="previous match (Shift+Enter)">Previous</button>' +
            '<button type="button" class="find-next" title="next match (Enter)">Next</button>';
          legend.parentNode.insertBefore(box, legend);
          var input = box.querySelector('input'), found = box.querySelector('#found'), matches = [], current = -1;
          function words(element) {
            var title = element.querySelector('title');
            return ((title ? title.textContent : '') + ' ' +
              (element.tagName.toLowerCase() === 'text' ? element.textContent : '')).toLowerCase();
          }
          function say() {
            var count = matches.length;
            found.textContent = input.value.trim() === '' ? '' : (current >= 0 ? (current + 1) + ' of ' : '') +
              count + (count === 1 ? ' bar matches' : ' bars match');
          }
          // `keep`: after a zoom drew the bars again, stay on the match the reader was at.
          function apply(query, keep) {
            var at = keep ? current : -1;
            query = query.trim().toLowerCase();
            var items = document.querySelectorAll('svg.timeline rect, svg.timeline path.pin, svg.timeline text.barname');
            matches = [];
            Array.prototype.forEach.call(items, function (element) {
              var shown = element.getClientRects().length > 0;
              var hit = query !== '' && shown && words(element).indexOf(query) >= 0;
              element.classList.toggle('hit', hit);
              element.classList.remove('current');
              if (hit && element.tagName.toLowerCase() !== 'text') matches.push(element);
            });
            document.body.classList.toggle('finding', query !== '');
            current = at >= 0 && matches.length ? Math.min(at, matches.length - 1) : -1;
            if (current >= 0) matches[current].classList.add('current');
            say();
          }
          function go(by) {
            if (!matches.length) return;
            if (matches[current]) matches[current].classList.remove('current');
            current = current < 0 ? (by > 0 ? 0 : matches.length - 1) : (current + by + matches.length) % matches.length;
            var element = matches[current];
            element.classList.add('current');
            element.scrollIntoView({ block: 'center', inline: 'center' });
            say();
          }
          input.addEventListener('input', function () { apply(input.value); });
          input.addEventListener('keydown', function (event) {
            if (event.key === 'Enter') { event.preventDefault(); go(event.shiftKey ? -1 : 1); }
          });
          box.querySelector('.find-next').addEventListener('click', function () { go(1); });
          box.querySelector('.find-previous').addEventListener('click', function () { go(-1); });
          document.addEventListener('lifetrace-redraw', function () { if (input.value.trim() !== '') apply(input.value, true); });
          var match = /^#find=(.*)$/.exec(location.hash);
          if (match) { input.value = decodeURIComponent(match[1]); apply(input.value); }
        })();
        </script>

        """
}
