import LifetraceAnalysis

/// The stack samples of one stall as an icicle graph (a flame graph drawn downwards): the
/// outermost frame on top, each function as wide as the samples it was on the stack for, its
/// callees under it, the heaviest on the left. The app's own frames (``InAppImages``) are warm and
/// their tooltips say `in-app`, the system's (C library, loader, runtimes) blue-grey; hovering a
/// frame shows its name, file and samples.
/// Inline SVG, no script.
public struct FlameGraphSVG {
    /// The page's width in pixels.
    public static let width = 1000
    /// The height of a row (a stack depth).
    public static let rowHeight = 18
    /// Frames narrower than this many pixels are not drawn (nor their callees).
    public static let minimumWidth = 0.5
    /// The style the graph needs.
    public static let style = """
        svg.flame{display:block;background:#fff}svg.flame rect{stroke:#fff;stroke-width:.5}
        svg.flame text{font:10px ui-monospace,Menlo,Consolas,monospace;fill:#222;pointer-events:none}

        """

    /// The stall's profile.
    public let profile: StallProfile

    /// A graph of `profile`'s samples.
    public init(profile: StallProfile) { self.profile = profile }

    /// The heading line and the graph, or nothing when the profile has no samples.
    public var rendered: String {
        let graph = profile.flame
        guard graph.sampleCount > 0 else { return "" }
        let scale = Double(Self.width) / Double(graph.sampleCount)
        let height = (graph.maxDepth + 1) * Self.rowHeight
        var out = "<p class=\"axis-note\">Stack samples of the main thread: \(graph.sampleCount) during the stall"
        if let line = profile.blameLine { out += "; \(HTMLText.escape(line))" }
        out += ". Outermost frame on top, each as wide as its samples; the app's own (in-app) frames are warm.</p>\n"
        out += "<div class=\"scroll\"><svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.width)\" "
            + "height=\"\(height)\" viewBox=\"0 0 \(Self.width) \(height)\" role=\"img\" aria-label=\"stack samples\">\n"
        var pending: [(node: Int, x: Double)] = []
        var x = 0.0
        for root in graph.roots {
            pending.append((root, x))
            x += Double(graph.nodes[root].samples) * scale
        }
        while let (index, left) = pending.popLast() {
            let node = graph.nodes[index]
            let width = Double(node.samples) * scale
            guard width >= Self.minimumWidth else { continue }
            out += frame(node, x: left, width: width, total: graph.sampleCount)
            var childX = left
            for child in node.children {
                pending.append((child, childX))
                childX += Double(graph.nodes[child].samples) * scale
            }
        }
        return out + "</svg></div>\n"
    }

    private func frame(_ node: FlameGraph.Node, x: Double, width: Double, total: Int) -> String {
        let y = node.depth * Self.rowHeight
        let percent = Double(node.samples) * 100 / Double(total)
        var tip = node.frame.description + "\n\(node.samples) of \(total) samples (\(Self.fixed(percent, 1))%)"
        if node.selfSamples > 0 { tip += ", \(node.selfSamples) innermost" }
        if node.frame.isApp { tip += "\nin-app" }
        var out = "<g><title>\(HTMLText.escape(tip))</title><rect x=\"\(Self.fixed(x, 2))\" y=\"\(y)\" "
            + "width=\"\(Self.fixed(width, 2))\" height=\"\(Self.rowHeight - 1)\" fill=\"\(Self.colour(node.frame))\"/>"
        // About 6 pixels a character in the monospaced font.
        let fits = Int((width - 6) / 6.1)
        if fits >= 3 {
            let name = node.frame.function
            let label = name.count <= fits ? name : String(name.prefix(fits - 1)) + "\u{2026}"
            out += "<text x=\"\(Self.fixed(x + 3, 2))\" y=\"\(y + 12)\">\(HTMLText.escape(label))</text>"
        }
        return out + "</g>\n"
    }

    /// A colour by function: warm (red to yellow) for the app's frames, blue-grey for the
    /// system's, varied by the name so that neighbours differ and a function keeps its colour.
    static func colour(_ frame: FrameName) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in frame.function.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let vary = Int(hash % 1000)
        if frame.isApp {
            return rgb(225 + vary % 30, 90 + vary % 110, 40 + vary % 30)
        }
        return rgb(150 + vary % 30, 170 + vary % 30, 195 + vary % 30)
    }

    private static func rgb(_ red: Int, _ green: Int, _ blue: Int) -> String {
        "#" + [red, green, blue].map { value in
            let hex = String(min(255, value), radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// `value` with `digits` decimals, without Foundation.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var factor = 1.0
        for _ in 0..<digits { factor *= 10 }
        let scaled = Int64((value * factor).rounded())
        let whole = scaled / Int64(factor)
        let fraction = abs(scaled % Int64(factor))
        guard digits > 0 else { return String(whole) }
        let sign = scaled < 0 && whole == 0 ? "-" : ""
        var digitsText = String(fraction)
        while digitsText.count < digits { digitsText = "0" + digitsText }
        return sign + String(whole) + "." + digitsText
    }
}
