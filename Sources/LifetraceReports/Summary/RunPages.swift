import Foundation

/// Where the many-run summary page's links lead: a page per linked run (what
/// `lifetrace report TRACE --format html` writes), in a folder beside the summary named after
/// it (`summary-runs/` for `summary.html`), so that the links hold wherever the summary and its
/// folder are copied together. Each page is named after its trace's file (`seed-37.ltrace.html`;
/// `seed-37.ltrace-2.html` for a second trace of that name elsewhere), and a link goes to the
/// lifetime's anchor on it (`#lifetime-N`).
public struct RunPages: Sendable, Hashable {
    /// The folder, relative to the summary's directory.
    public let folder: String
    /// The page's file name for each trace path that has one.
    public let names: [String: String]
    /// The traces with a page, in the order given.
    public let traces: [String]

    /// The pages for `traces` (each path once, in this order) of the summary written to
    /// `summaryPath`.
    public init(summaryPath: String, traces: [String]) {
        folder = Self.folder(summaryPath: summaryPath)
        var names: [String: String] = [:]
        var taken: Set<String> = []
        var ordered: [String] = []
        for path in traces where names[path] == nil {
            let base = (path as NSString).lastPathComponent
            var name = base + ".html"
            var copy = 2
            while taken.contains(name) {
                name = "\(base)-\(copy).html"
                copy += 1
            }
            taken.insert(name)
            names[path] = name
            ordered.append(path)
        }
        self.names = names
        self.traces = ordered
    }

    /// The folder of the run pages of a summary written to `summaryPath`: its file name without
    /// the extension, then `-runs`.
    public static func folder(summaryPath: String) -> String {
        let name = (summaryPath as NSString).lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        return (stem.isEmpty ? name : stem) + "-runs"
    }

    /// Where the page of `trace` is written: in ``folder`` in the directory of `summaryPath`.
    public func file(_ trace: String, summaryPath: String) -> String? {
        guard let name = names[trace] else { return nil }
        let directory = (summaryPath as NSString).deletingLastPathComponent
        return ((directory.isEmpty ? folder : (directory as NSString).appendingPathComponent(folder)) as NSString)
            .appendingPathComponent(name)
    }

    /// The link from the summary to `lifetime` (from 0) of `trace`'s page, relative to the
    /// summary's directory and percent-encoded; nil when the trace has no page.
    public func href(_ trace: String, lifetime: Int) -> String? {
        guard let name = names[trace] else { return nil }
        return Self.encoded(folder) + "/" + Self.encoded(name) + "#" + HTMLText.anchor("lifetime", lifetime + 1)
    }

    /// A path segment percent-encoded: everything but ASCII letters, digits and `-._~`, so that
    /// no name reads as a scheme (`a:b`), a query (`?`), a fragment (`#`) or another segment.
    static func encoded(_ segment: String) -> String {
        var out = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
