/// The one script an HTML report carries, inline: find by name. It adds a search field above the
/// timelines (a page read without script has no dead field) and, as the user types, outlines every
/// bar, pin and label of the timelines whose name or tooltip holds the text, dims the others and
/// says how many match; `#find=NAME` in the address does the same when the page opens. It fetches
/// nothing and changes nothing else: the page reads the same without it.
public enum HTMLSearch {
    /// The CSS the search uses.
    public static let style = """
        p.find input{font:inherit;padding:2px 6px;width:18em}p.find span{color:#555;font-size:12px;margin-left:8px}
        svg.timeline rect.hit,svg.timeline path.hit{stroke:#000;stroke-width:1.5px}text.hit{font-weight:700}
        body.finding svg.timeline rect:not(.hit):not(.launch),body.finding svg.timeline path:not(.hit){opacity:.2}

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
          legend.parentNode.insertBefore(box, legend);
          var input = box.querySelector('input'), found = box.querySelector('#found');
          var items = Array.prototype.slice.call(document.querySelectorAll(
            'svg.timeline rect, svg.timeline path.pin, svg.timeline text.barname'));
          function words(element) {
            var title = element.querySelector('title');
            return ((title ? title.textContent : '') + ' ' +
              (element.tagName.toLowerCase() === 'text' ? element.textContent : '')).toLowerCase();
          }
          var texts = items.map(words);
          function apply(query) {
            query = query.trim().toLowerCase();
            var count = 0;
            items.forEach(function (element, index) {
              var hit = query !== '' && texts[index].indexOf(query) >= 0;
              element.classList.toggle('hit', hit);
              if (hit && element.tagName.toLowerCase() !== 'text') count += 1;
            });
            document.body.classList.toggle('finding', query !== '');
            found.textContent = query === '' ? '' : count + (count === 1 ? ' bar matches' : ' bars match');
          }
          input.addEventListener('input', function () { apply(input.value); });
          var match = /^#find=(.*)$/.exec(location.hash);
          if (match) { input.value = decodeURIComponent(match[1]); apply(input.value); }
        })();
        </script>

        """
}
