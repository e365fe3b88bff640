import Foundation

/// A real arm64 Mach-O executable and its dSYM, built from a small C program with Debian's clang,
/// `ld64.lld-14` and `dsymutil` (`scripts/ensure-deps.sh --tests` installs them): what an Apple
/// image's symbol file is, for tests that symbolicate device stacks by UUID on Linux.
public enum MachOFixture {
    /// The program: line 4 is the loop's body, in `busy`.
    public static let source = """
        int busy(int n) {
            int total = 0;
            for (int i = 0; i < n; i++)
                total += i * 3;
            return total;
        }
        int main(int argc, char **argv) { return busy(argc); }

        """

    /// A Mach-O executable, its dSYM, its UUID (hex, lower case, no dashes) and `__TEXT`
    /// address, and the address in the file of the first instruction of line 4 (in `busy`).
    public struct Built: Sendable {
        public var executable: String
        public var dsym: String
        public var uuid: String
        public var text: UInt64
        public var lineFour: UInt64
    }

    /// Why a fixture could not be built.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The first of `names` on PATH.
    public static func tool(_ names: [String]) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            for directory in path where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        throw Failure(description: "none of \(names) on PATH: run scripts/ensure-deps.sh --tests (clang, lld, llvm)")
    }

    /// Runs `tool`; its output, or a failure with it.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw Failure(description: "\(tool) \(arguments): \(text)") }
        return text
    }

    /// Builds ``source`` (plus `extra`, which changes the UUID) in `directory` as `name`.
    public static func build(_ directory: String, name: String = "Work", extra: String = "") throws -> Built {
        let clang = try tool(["clang-14", "clang"])
        let linker = try tool(["ld64.lld-14", "ld64.lld"])
        let dsymutil = try tool(["dsymutil-14", "dsymutil"])
        let dwarfdump = try tool(["llvm-dwarfdump-14", "llvm-dwarfdump"])
        let objdump = try tool(["llvm-objdump-14", "llvm-objdump"])
        let c = "\(directory)/\(name).c", object = "\(directory)/\(name).o", executable = "\(directory)/\(name)"
        try (source + extra).write(toFile: c, atomically: true, encoding: .utf8)
        try run(clang, ["-target", "arm64-apple-macos11", "-g", "-O0", "-c", c, "-o", object])
        try run(linker, ["-arch", "arm64", "-platform_version", "macos", "11.0", "11.0", "-e", "_main", "-o", executable, object])
        let dsym = executable + ".dSYM"
        try run(dsymutil, [executable, "-o", dsym])
        // "UUID: 4C4C44A6-5555-3144-A1D5-CC5ADFA55E48 (arm64) Work"
        let uuidLine = try run(dwarfdump, ["--uuid", executable])
        let uuid = try found(uuidLine.split(separator: " ").dropFirst().first, "a UUID in \(uuidLine)")
            .replacingOccurrences(of: "-", with: "").lowercased()
        let headers = try run(objdump, ["--macho", "--private-headers", executable])
        let textSegment = try found(headers.components(separatedBy: "segname __TEXT").dropFirst().first, "the __TEXT segment")
        let vmaddr = try found(textSegment.split(separator: "\n").first { $0.contains("vmaddr") }?.split(separator: " ").last, "vmaddr")
        let text = try found(UInt64(vmaddr.dropFirst(2), radix: 16), "a hexadecimal vmaddr")
        let lines = try run(dwarfdump, ["--debug-line", dsym])
        let row = try found(lines.split(separator: "\n").first { $0.hasPrefix("0x") && $0.split(separator: " ")[1] == "4" }, "line 4")
        let lineFour = try found(UInt64(row.split(separator: " ")[0].dropFirst(2), radix: 16), "line 4's address")
        return Built(executable: executable, dsym: dsym, uuid: uuid, text: text, lineFour: lineFour)
    }

    private static func found<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw Failure(description: "no \(what) in the tools' output") }
        return value
    }
}
