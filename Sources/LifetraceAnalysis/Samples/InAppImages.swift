/// Which images hold the app's own code (docs/REPORTS.md, "In-app frames"): a sampled frame is
/// in-app or not by the image its address lies in, as crash reporters decide it. By default
/// every image is the app's but the system's: the C library and the loader, the Swift runtime
/// and standard library, Foundation, Dispatch and the other libraries of the system or the
/// toolchain (``isSystemImage(_:)``). Patterns given with `--in-app` and `--not-in-app` (or
/// `in-app:` and `not-in-app:` in `.lifetrace.yml`) come first, `--in-app` before `--not-in-app`,
/// so that an app shipping its code in several images, or a framework of its own installed where
/// the system's are, can say so: `--not-in-app '*' --in-app 'MyApp*'` makes only images whose
/// name starts with `MyApp` the app's.
public struct InAppImages: Sendable, Hashable {
    /// Patterns of images that are the app's, whatever the other rules say.
    public var included: [String]
    /// Patterns of images that are not the app's, unless ``included`` names them.
    public var excluded: [String]

    /// The default rules, with `included` and `excluded` before them.
    public init(included: [String] = [], excluded: [String] = []) {
        self.included = included
        self.excluded = excluded
    }

    /// Whether the image at `path` holds the app's own code. A pattern without a `/` is matched
    /// against the image's file name, one with a `/` against its whole path; `*` matches any run
    /// of characters (`/` too), `?` any one.
    public func isInApp(_ path: String) -> Bool {
        if included.contains(where: { Self.matches($0, path) }) { return true }
        if excluded.contains(where: { Self.matches($0, path) }) { return false }
        return !Self.isSystemImage(path)
    }

    /// Whether `pattern` matches the image at `path` (``isInApp(_:)``).
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let subject = pattern.contains("/") ? path : fileName(path)
        return glob(Array(pattern.utf8)[...], Array(subject.utf8)[...])
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `*` and `?` over bytes, iteratively: the last `*` is retried one byte further on a
    /// mismatch, so a pattern costs at most its length times the subject's.
    private static func glob(_ pattern: ArraySlice<UInt8>, _ subject: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex
        var s = subject.startIndex
        var star: (pattern: Int, subject: Int)?
        while s < subject.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = (p, s)
                p += 1
            } else if p < pattern.endIndex, pattern[p] == UInt8(ascii: "?") || pattern[p] == subject[s] {
                p += 1
                s += 1
            } else if let last = star {
                p = last.pattern + 1
                s = last.subject + 1
                star = (last.pattern, last.subject + 1)
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }

    /// Whether `path` is the system's or the toolchain's, never the app's own code: on Linux the
    /// C library, the loader, the vDSO, the Swift runtime and standard library, Foundation,
    /// Dispatch, ICU, zlib and zstd by name, and whatever lies under `/lib/`, `/lib64/` or
    /// `/usr/lib/`; on
    /// Apple platforms whatever lies under `/usr/lib/` (libSystem, libdispatch, the Swift
    /// runtime, dyld) or `/System/` (UIKit, Foundation and every other framework of the system),
    /// on a device or in a simulator's runtime root. An app's own frameworks lie in its bundle
    /// (`App.app/Frameworks/`): the app's.
    public static func isSystemImage(_ path: String) -> Bool {
        let name = fileName(path)
        let systemNames = [
            "ld-linux", "libc.so", "libm.so", "libpthread", "libstdc++", "libgcc", "libswift", "libFoundation",
            "lib_Foundation", "libdispatch", "libBlocksRuntime", "libicu", "linux-vdso", "libz.so", "libzstd",
        ]
        if systemNames.contains(where: { name.hasPrefix($0) }) || name == "dyld" { return true }
        let systemDirectories = ["/usr/lib/", "/lib/", "/lib64/", "/System/"]
        if systemDirectories.contains(where: { path.hasPrefix($0) }) { return true }
        // A simulator's runtime (…/RuntimeRoot/System/Library/…, …/RuntimeRoot/usr/lib/…) and
        // the toolchain's Swift libraries wherever it is installed.
        return path.contains("/RuntimeRoot/System/") || path.contains("/RuntimeRoot/usr/lib/")
            || path.contains("/usr/lib/swift/linux/")
    }
}
