/// Sorting of the page's tables, inline: a click on a column's title of a `table.sortable` sorts
/// its rows by that column, a second click the other way. A cell sorts by its `data-v` when it
/// has one (durations in ns, numbers), else by its number when it reads as one, else by its text.
/// The header row stays first; the page reads the same without script (the rows in the report's
/// order, which is already the useful one).
public enum HTMLTableSort {
    /// The CSS.
    public static let style = """
        table.sortable th{cursor:pointer;user-select:none}table.sortable th[aria-sort=ascending]::after{content:" \\25b2"}
        table.sortable th[aria-sort=descending]::after{content:" \\25bc"}

        """

    /// The script element.
    public static let script = """
        <script>
        (function () {
          function key(cell) {
            if (!cell) return '';
            if (cell.hasAttribute('data-v')) return Number(cell.getAttribute('data-v'));
            var text = cell.textContent.trim(), number = Number(text.replace(/[^0-9.eE+-]/g, ''));
            return text !== '' && /^[-+]?[0-9]/.test(text) && !isNaN(number) ? number : text.toLowerCase();
          }
          Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
            var rows = table.rows, header = rows[0];
            if (!header) return;
            Array.prototype.forEach.call(header.cells, function (th, column) {
              th.title = 'sort by ' + th.textContent;
              th.addEventListener('click', function () {
                var descending = th.getAttribute('aria-sort') === 'ascending';
                Array.prototype.forEach.call(header.cells, function (other) { other.removeAttribute('aria-sort'); });
                th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
                var body = Array.prototype.slice.call(rows, 1), parent = body.length ? body[0].parentNode : null;
                body.sort(function (a, b) {
                  var x = key(a.cells[column]), y = key(b.cells[column]);
                  var order = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
                  return descending ? -order : order;
                });
                body.forEach(function (row) { parent.appendChild(row); });
              });
            });
          });
        })();
        </script>

        """
}
