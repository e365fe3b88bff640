import Foundation

/// One architecture of a Mach-O file that can name an Apple image's frames: an unstripped
/// executable or library, or the DWARF file of a `.dSYM` bundle
/// (`APP.dSYM/Contents/Resources/DWARF/APP`), known by its `LC_UUID`, which is the image's
/// (docs/FORMAT.md, "Stack samples": an Apple image's `build_id`).
public struct MachOSymbolFile: Hashable, Sendable {
    /// The file's path.
    public var path: String
    /// The architecture's name as llvm-symbolizer takes it after the path (`arm64`), for a slice
    /// of a universal file; nil for a file of one architecture.
    public var architecture: String?
    /// The `LC_UUID`, lower-case hexadecimal without dashes, as trace records write it.
    public var uuid: String
    /// The `__TEXT` segment's address in the file (`vmaddr`): where the image's header lies
    /// before the loader slides it. An address in the image is `address - load address + textAddress`
    /// in the file.
    public var textAddress: UInt64

    /// The name llvm-symbolizer reads the file by: its path, with `:ARCH` for a slice.
    public var symbolizerName: String { architecture.map { path + ":" + $0 } ?? path }

    /// The most load commands read of one file, and the most bytes of them.
    static let commandLimit = 4096
    static let commandBytesLimit = 1 << 20
    /// The most slices of a universal file read.
    static let sliceLimit = 16

    /// The architectures of the Mach-O file at `path` (one for a thin file, each slice of a
    /// universal one), or empty when it is no 64-bit little-endian Mach-O file or cannot be read.
    public static func read(path: String) -> [MachOSymbolFile] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard let magic = try? handle.read(upToCount: 8), magic.count == 8 else { return [] }
        if magic.prefix(4) == Data([0xCA, 0xFE, 0xBA, 0xBE]) {
            // A universal file: big-endian `fat_header` and `fat_arch` entries of 20 bytes.
            let count = Int(bigEndian(magic, 4))
            guard count <= sliceLimit, let table = try? handle.read(upToCount: 20 * count), table.count == 20 * count else { return [] }
            return (0..<count).compactMap { index in
                let type = bigEndian(table, 20 * index)
                let subtype = bigEndian(table, 20 * index + 4)
                let offset = UInt64(bigEndian(table, 20 * index + 8))
                return slice(handle, at: offset, path: path, architecture: architectureName(type: type, subtype: subtype))
            }
        }
        return slice(handle, at: 0, path: path, architecture: nil).map { [$0] } ?? []
    }

    /// The UUID and `__TEXT` address of the thin Mach-O image at `offset`.
    private static func slice(_ handle: FileHandle, at offset: UInt64, path: String, architecture: String?) -> MachOSymbolFile? {
        guard (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 32), header.count == 32,
            header.prefix(4) == Data([0xCF, 0xFA, 0xED, 0xFE])
        else { return nil }
        let count = Int(littleEndian(header, 16, UInt32.self))
        let size = Int(littleEndian(header, 20, UInt32.self))
        guard count <= commandLimit, size <= commandBytesLimit, let commands = try? handle.read(upToCount: size), commands.count == size else {
            return nil
        }
        var uuid: String?
        var text: UInt64?
        var position = 0
        for _ in 0..<count {
            guard position + 8 <= commands.count else { break }
            let command = littleEndian(commands, position, UInt32.self)
            let length = Int(littleEndian(commands, position + 4, UInt32.self))
            guard length >= 8, position + length <= commands.count else { break }
            if command == 0x1B, length >= 24 {
                uuid = commands[(position + 8)..<(position + 24)].map { String(format: "%02x", $0) }.joined()
            } else if command == 0x19, length >= 72,
                commands[(position + 8)..<(position + 24)].prefix(while: { $0 != 0 }) == Data("__TEXT".utf8)
            {
                text = littleEndian(commands, position + 24, UInt64.self)
            }
            position += length
        }
        guard let uuid else { return nil }
        return MachOSymbolFile(path: path, architecture: architecture, uuid: uuid, textAddress: text ?? 0)
    }

    private static func bigEndian(_ data: Data, _ offset: Int) -> UInt32 {
        UInt32(bigEndian: littleEndian(data, offset, UInt32.self))
    }

    private static func littleEndian<T: FixedWidthInteger>(_ data: Data, _ offset: Int, _: T.Type) -> T {
        data.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }

    /// The architecture's name as the LLVM tools spell it (`arm64`, `arm64e`, `x86_64`), or nil.
    private static func architectureName(type: UInt32, subtype: UInt32) -> String? {
        switch (type, subtype & 0x00FF_FFFF) {
        case (0x0100_000C, 2): "arm64e"
        case (0x0100_000C, _): "arm64"
        case (0x0100_0007, _): "x86_64"
        default: nil
        }
    }
}
