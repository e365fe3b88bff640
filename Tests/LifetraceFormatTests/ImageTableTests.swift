import Testing
@testable import LifetraceFormat

/// The image table (``ImageTable``): an address's image found by binary search, the last-declared
/// image winning where images overlap, and images that end exactly at 2^64.
struct ImageTableTests {
    static func image(_ base: UInt64, _ size: UInt64, _ name: String = "lib") -> LoadedImage {
        LoadedImage(timestamp: 0, path: "/lib/" + name, buildID: "", base: base, size: size)
    }

    /// What the table must answer: the last declared image that contains the address.
    static func reference(_ images: [LoadedImage], _ address: UInt64) -> Int? {
        images.lastIndex { $0.contains(address) }
    }

    @Test func overlappingImagesResolveToTheLastDeclared() {
        let images = [
            Self.image(0x1000, 0x1000, "a"),  // 0x1000 ..< 0x2000
            Self.image(0x1800, 0x100, "b"),  // inside a, declared after it: wins there
            Self.image(0x0800, 0x1000, "c"),  // over a's start and b: wins 0x800 ..< 0x1800
            Self.image(0x3000, 0, "empty"),  // holds nothing
        ]
        let table = ImageTable(images)
        for (address, expected) in [
            (0x7FF, nil), (0x800, 2), (0x17FF, 2), (0x1800, 1), (0x18FF, 1), (0x1900, 0), (0x1FFF, 0), (0x2000, nil),
            (0x3000, nil),
        ] as [(UInt64, Int?)] {
            #expect(table.index(containing: address) == expected, "0x\(String(address, radix: 16))")
        }
    }

    @Test func randomOverlapsAgreeWithTheLinearRule() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<50 {
            let images = (0..<Int(generator.next() % 40)).map { _ in
                Self.image(generator.next() % 0x1000, generator.next() % 0x300)
            }
            let table = ImageTable(images)
            #expect(table.rangeCount <= 2 * images.count + 1)
            var addresses: [UInt64] = (0..<200).map { _ in generator.next() % 0x1400 }
            // Every bound, and either side of it.
            for image in images { addresses += [image.base &- 1, image.base, image.base &+ image.size &- 1, image.base &+ image.size] }
            for address in addresses {
                #expect(table.index(containing: address) == Self.reference(images, address), "0x\(String(address, radix: 16)) in \(images)")
            }
        }
    }

    @Test func aLookupAmong4096ImagesIsABinarySearch() {
        // Declared from the highest address down, each overlapping the next: the worst order for
        // the linear rule (the last declared holds the lowest addresses).
        let images = (0..<SampledStacks.maxImages).map { Self.image(0x1000_0000 - UInt64($0) * 0x1000, 0x1800) }
        let table = ImageTable(images)
        #expect(table.rangeCount <= 2 * images.count + 1)
        let bound = Int.bitWidth - (table.rangeCount).leadingZeroBitCount + 1
        #expect(bound <= 15)
        for address: UInt64 in stride(from: 0x0FFF_0000, to: 0x1000_2000, by: 0x123) {
            let (index, probes) = table.lookup(address)
            #expect(index == Self.reference(images, address))
            #expect(probes <= bound)
        }
    }

    @Test func anImageMayEndExactlyAt2To64() throws {
        #expect(LoadedImage.fitsAddressSpace(base: 0xFFFF_FFFF_FFFF_FF00, size: 0x100))
        #expect(!LoadedImage.fitsAddressSpace(base: 0xFFFF_FFFF_FFFF_FF00, size: 0x101))
        #expect(LoadedImage.fitsAddressSpace(base: 0, size: .max))
        let top = Self.image(0xFFFF_FFFF_FFFF_FF00, 0x100, "top")
        #expect(top.clampedEnd == .max)
        let table = ImageTable([Self.image(0x1000, 0x1000), top])
        #expect(table.index(containing: .max) == 1)
        #expect(table.index(containing: 0xFFFF_FFFF_FFFF_FF00) == 1)
        #expect(table.index(containing: 0xFFFF_FFFF_FFFF_FEFF) == nil)
        // Both forms read it, and the binary form writes all of it.
        let text = #"{"ts":1,"type":"image","path":"/top","base":"0xffffffffffffff00","size":"0x100"}"#
        var jsonl = try JSONLTraceReader(bytes: Array(text.utf8), name: "t.jsonl")
        while try jsonl.next() != nil {}
        #expect(jsonl.sampledStacks.images.map(\.size) == [0x100])
        let bytes = try BinaryTraceFixture.write([], symbols: SymbolTable()) { writer in
            try writer.appendImage(top)
            try writer.appendSample(timestamp: 10, thread: .main, frames: [.max])
        }
        let (_, reader) = try BinaryTraceFixture.read(bytes)
        #expect(reader.issues.isEmpty, "\(reader.issues)")
        #expect(reader.sampledStacks.images.map(\.size) == [0x100])
        #expect(reader.sampledStacks.describe(.max) == "top+0xff")
    }

    @Test func stacksBuildTheirTableAgainAfterAnImageIsAdded() {
        var stacks = SampledStacks()
        stacks.addImage(Self.image(0x1000, 0x1000, "a"))
        #expect(stacks.image(containing: 0x1800)?.path == "/lib/a")
        let before = stacks
        stacks.addImage(Self.image(0x1800, 0x100, "b"))
        #expect(stacks.image(containing: 0x1800)?.path == "/lib/b")
        #expect(before.image(containing: 0x1800)?.path == "/lib/a")
        #expect(stacks.imageIndex(containing: 0x2000) == nil)
    }
}
