import CRecorderSignals
import Testing

/// What the Apple sampler reads of a loaded image's Mach-O header (`lifetrace_macho_image_read`):
/// its LC_UUID and its `__TEXT` segment, never past the bytes it may read.
@Suite struct MachOImageTests {
    static let uuid: [UInt8] = Array(0x10...0x1F)

    static func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func le64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    static func segment(_ name: String, vmaddr: UInt64, vmsize: UInt64) -> [UInt8] {
        var name16 = Array(name.utf8)
        name16 += [UInt8](repeating: 0, count: 16 - name16.count)
        // cmd, cmdsize, segname, vmaddr, vmsize, fileoff, filesize, maxprot, initprot, nsects, flags
        return le32(0x19) + le32(72) + name16 + le64(vmaddr) + le64(vmsize) + le64(0) + le64(vmsize) + le32(5) + le32(5) + le32(0) + le32(0)
    }

    static func header(_ commands: [[UInt8]], sizeOfCommands: UInt32? = nil, magic: UInt32 = 0xfeed_facf) -> [UInt8] {
        let body = commands.flatMap { $0 }
        // magic, cputype (arm64), cpusubtype, filetype (MH_EXECUTE), ncmds, sizeofcmds, flags, reserved
        return le32(magic) + le32(0x0100_000C) + le32(0) + le32(2) + le32(UInt32(commands.count))
            + le32(sizeOfCommands ?? UInt32(body.count)) + le32(0) + le32(0) + body
    }

    static let executable = header([
        segment("__PAGEZERO", vmaddr: 0, vmsize: 0x1_0000_0000),
        segment("__TEXT", vmaddr: 0x1_0000_0000, vmsize: 0x8000),
        le32(0x1B) + le32(24) + uuid,
        segment("__DATA", vmaddr: 0x1_0000_8000, vmsize: 0x4000),
    ])

    func read(_ bytes: [UInt8], available: Int? = nil) -> (status: Int32, image: lifetrace_macho_image) {
        var image = lifetrace_macho_image()
        let status = bytes.withUnsafeBufferPointer { lifetrace_macho_image_read($0.baseAddress, UInt64(available ?? $0.count), &image) }
        return (status, image)
    }

    func uuid(of image: lifetrace_macho_image) -> [UInt8] {
        withUnsafeBytes(of: image.uuid) { Array($0) }
    }

    @Test("an executable's LC_UUID and __TEXT segment are read, not __PAGEZERO's or __DATA's")
    func readsUUIDAndText() {
        let (status, image) = read(Self.executable)
        #expect(status == 0)
        #expect(image.has_uuid == 1)
        #expect(uuid(of: image) == Self.uuid)
        #expect(image.has_text == 1)
        #expect(image.text_vmaddr == 0x1_0000_0000)
        #expect(image.text_size == 0x8000)
    }

    @Test("an image without LC_UUID says so")
    func noUUID() {
        let (status, image) = read(Self.header([Self.segment("__TEXT", vmaddr: 0x1_8000_0000, vmsize: 0x2000)]))
        #expect(status == 0)
        #expect(image.has_uuid == 0)
        #expect(image.has_text == 1)
        #expect(image.text_size == 0x2000)
    }

    @Test("a 32-bit or foreign header, or fewer bytes than a header, is refused")
    func notAMachOHeader() {
        #expect(read(Self.header([], magic: 0xfeed_face)).status == -1)
        #expect(read(Array("\u{7F}ELF".utf8) + [UInt8](repeating: 0, count: 60)).status == -1)
        #expect(read(Array(Self.executable.prefix(31))).status == -1)
    }

    @Test("commands past the bytes that may be read, or past sizeofcmds, are not read")
    func boundedReads() {
        // The UUID command lies past the readable bytes: __TEXT was read, the UUID was not.
        let cut = read(Self.executable, available: 32 + 72 + 72 + 10)
        #expect(cut.status == -1)
        #expect(cut.image.has_text == 1)
        #expect(cut.image.has_uuid == 0)
        // sizeofcmds says less than the commands claim: the read stops at it.
        let short = read(Self.header([Self.segment("__TEXT", vmaddr: 0, vmsize: 0x10), Self.le32(0x1B) + Self.le32(24) + Self.uuid], sizeOfCommands: 80))
        #expect(short.status == -1)
        #expect(short.image.has_uuid == 0)
    }

    @Test("a command of size 0 or one running past the commands ends the read, never loops")
    func malformedCommandSize() {
        #expect(read(Self.header([Self.le32(0x1B) + Self.le32(0) + Self.uuid])).status == -1)
        #expect(read(Self.header([Self.le32(0x1B) + Self.le32(4000) + Self.uuid])).status == -1)
        // More commands claimed than sizeofcmds holds.
        var bytes = Self.header([Self.le32(0x1B) + Self.le32(24) + Self.uuid])
        bytes.replaceSubrange(16..<20, with: Self.le32(5))
        let (status, image) = read(bytes)
        #expect(status == -1)
        #expect(image.has_uuid == 1)
    }
}
