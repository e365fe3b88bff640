import Foundation

extension Symbolizer {
    /// The file-address ranges of the ELF file's procedure linkage table sections (`.plt`,
    /// `.plt.got`, `.plt.sec`): code the linker made, in no function of the image's own.
    public static func linkageStubSections(ofFile path: String) -> [Range<UInt64>] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 64), header.count == 64,
            header.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), header[4] == 2, header[5] == 1
        else { return [] }
        func integer<T: FixedWidthInteger>(_ data: Data, _ offset: Int, _: T.Type) -> T {
            data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let tableOffset = integer(header, 0x28, UInt64.self)
        let entrySize = Int(integer(header, 0x3A, UInt16.self))
        let count = Int(integer(header, 0x3C, UInt16.self))
        let namesIndex = Int(integer(header, 0x3E, UInt16.self))
        guard entrySize >= 64, count <= 1 << 12, namesIndex < count, (try? handle.seek(toOffset: tableOffset)) != nil,
            let table = try? handle.read(upToCount: entrySize * count), table.count == entrySize * count
        else { return [] }
        let namesEntry = namesIndex * entrySize
        let namesOffset = integer(table, namesEntry + 24, UInt64.self)
        let namesSize = integer(table, namesEntry + 32, UInt64.self)
        guard namesSize <= 1 << 20, (try? handle.seek(toOffset: namesOffset)) != nil,
            let names = try? handle.read(upToCount: Int(namesSize)), names.count == Int(namesSize)
        else { return [] }
        var ranges: [Range<UInt64>] = []
        for index in 0..<count {
            let entry = index * entrySize
            let nameStart = Int(integer(table, entry, UInt32.self))
            guard nameStart < names.count else { continue }
            let nameEnd = names[nameStart...].firstIndex(of: 0) ?? names.count
            let name = String(decoding: names[nameStart..<nameEnd], as: UTF8.self)
            guard name == ".plt" || name == ".plt.got" || name == ".plt.sec" else { continue }
            let address = integer(table, entry + 16, UInt64.self)
            let size = integer(table, entry + 32, UInt64.self)
            if size > 0, address <= UInt64.max - size { ranges.append(address..<(address + size)) }
        }
        return ranges
    }

    /// The GNU build id of the ELF file at `path`, in lower-case hexadecimal, or nil.
    public static func buildID(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 64), header.count == 64,
            header.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), header[4] == 2, header[5] == 1
        else { return nil }
        func integer<T: FixedWidthInteger>(_ data: Data, _ offset: Int, _: T.Type) -> T {
            data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let tableOffset = integer(header, 0x20, UInt64.self)
        let entrySize = Int(integer(header, 0x36, UInt16.self))
        let count = Int(integer(header, 0x38, UInt16.self))
        guard entrySize >= 56, count <= 256, (try? handle.seek(toOffset: tableOffset)) != nil,
            let table = try? handle.read(upToCount: entrySize * count), table.count == entrySize * count
        else { return nil }
        for index in 0..<count {
            let entry = index * entrySize
            guard integer(table, entry, UInt32.self) == 4 else { continue }
            let offset = integer(table, entry + 8, UInt64.self)
            let size = integer(table, entry + 32, UInt64.self)
            guard size <= 1 << 16, (try? handle.seek(toOffset: offset)) != nil,
                let notes = try? handle.read(upToCount: Int(size)), notes.count == Int(size)
            else { continue }
            var position = 0
            while position + 12 <= notes.count {
                let nameSize = Int(integer(notes, position, UInt32.self))
                let descSize = Int(integer(notes, position + 4, UInt32.self))
                let type = integer(notes, position + 8, UInt32.self)
                let name = position + 12
                let desc = name + ((nameSize + 3) & ~3)
                guard nameSize <= notes.count, descSize <= notes.count, desc + descSize <= notes.count else { break }
                if type == 3 && nameSize == 4 && notes[name..<(name + 3)] == Data("GNU".utf8) {
                    return notes[desc..<(desc + descSize)].map { String(format: "%02x", $0) }.joined()
                }
                position = desc + ((descSize + 3) & ~3)
            }
        }
        return nil
    }
}
