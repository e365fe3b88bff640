/// The style sheet and legend every HTML page carries inline. The lane colours are fixed (the
/// browser test looks for them in a screenshot): states `s0` grey, `s1` amber, `s2` green,
/// `s3` blue, `s4` purple, `s5` dark grey; busy orange, stalls red, callbacks teal, signposts
/// brown, background tasks olive, marks black, frames grey.
public enum HTMLStyle {
    /// The lane colours, by CSS class, as `#rrggbb`.
    public static let colours: [(name: String, hex: String)] = [
        ("s0", "#9e9e9e"), ("s1", "#f2b134"), ("s2", "#2e9e4f"), ("s3", "#3366cc"), ("s4", "#7b4fb8"),
        ("s5", "#444444"), ("busy", "#f07f1a"), ("stall", "#d62728"), ("cb", "#17a2b8"), ("sp", "#8c564b"),
        ("task", "#a6a61c"), ("mark", "#111111"), ("frame", "#888888"), ("bar", "#3366cc"),
    ]

    /// The style sheet.
    public static var sheet: String {
        var css = """
            body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px 24px;color:#222;background:#fff}
            h1{font-size:20px}h2{font-size:17px;margin-top:28px}h3{font-size:15px}
            table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
            th{background:#f6f6f6;font-weight:600}td.num{text-align:right}
            code{font-size:13px}.note,.axis-note{color:#666;font-size:12px}.fact{color:#555;font-size:12px}
            .scroll{overflow-x:auto}svg.timeline,svg.chart{display:block;background:#fff}
            text{font:11px system-ui,sans-serif;fill:#333}text.axis{fill:#666;font-size:10px}text.milestone{fill:#8a6100;font-size:10px}text.barname{fill:#fff;font-size:10px;pointer-events:none}
            line.tick{stroke:#eee}line.milestone{stroke:#b8860b;stroke-dasharray:3 2}rect.launch{fill:#fff4cc}
            path.pin{fill:#d62728}line.pinline{stroke:#d62728;stroke-opacity:.35}
            .o1{fill-opacity:.3}.o2{fill-opacity:.55}.o3{fill-opacity:.8}.o4{fill-opacity:1}
            .error{color:#b00020;font-weight:600}.warning{color:#a15c00;font-weight:600}
            .legend span{display:inline-block;margin-right:12px;font-size:12px}
            .legend i{display:inline-block;width:12px;height:10px;margin-right:4px;vertical-align:middle}

            """
        for colour in colours { css += ".\(colour.name){fill:\(colour.hex)}.legend i.\(colour.name){background:\(colour.hex)}\n" }
        return css
    }

    /// The legend shown above the timelines.
    public static let legend = """
        <p class="legend"><span><i class="s0"></i>not running / unattached</span><span><i class="s1"></i>inactive</span>\
        <span><i class="s2"></i>active</span><span><i class="s3"></i>background</span><span><i class="s4"></i>suspended</span>\
        <span><i class="s5"></i>terminating</span><span><i class="busy"></i>main thread busy</span>\
        <span><i class="stall"></i>stall</span><span><i class="cb"></i>callback</span><span><i class="sp"></i>signpost</span>\
        <span><i class="task"></i>background task</span><span><i class="mark"></i>mark</span><span><i class="frame"></i>frame</span>\
        <span>&#9660; violation (links to its explanation); shaded: launch window; dashed: milestones. \
        Interval rows are drawn per pixel: the darker, the more of the pixel is covered; hover for counts.</span></p>

        """
}
