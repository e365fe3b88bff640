import CRecorderSignals
import Testing

/// The frame-pointer walk both platforms' samplers use (`lifetrace_walk_frames`), over a stack
/// built in memory: what it follows, where it stops, and that it never reads outside the bounds.
@Suite struct FrameWalkTests {
    /// A stack of `words` 8-byte words; `records` maps a record's word index to (the word index
    /// of the caller's record, or an absolute value, and the return address).
    final class Stack {
        let words: UnsafeMutablePointer<UInt64>
        let count: Int
        init(words count: Int) {
            self.count = count
            words = .allocate(capacity: count)
            words.initialize(repeating: 0, count: count)
        }
        deinit { words.deallocate() }
        var low: UInt64 { UInt64(UInt(bitPattern: words)) }
        var high: UInt64 { low + UInt64(count * 8) }
        func address(_ index: Int) -> UInt64 { low + UInt64(index * 8) }
        func record(at index: Int, caller: UInt64, returnAddress: UInt64) {
            words[index] = caller
            words[index + 1] = returnAddress
        }
    }

    func walk(_ stack: Stack, pc: UInt64 = 0x1000, fp: UInt64, capacity: Int = 256, low: UInt64? = nil, high: UInt64? = nil) -> [UInt64] {
        var frames = [UInt64](repeating: 0, count: max(capacity, 1))
        let count = frames.withUnsafeMutableBufferPointer {
            lifetrace_walk_frames(pc, fp, low ?? stack.low, high ?? stack.high, lifetrace_read_frame_record, nil, $0.baseAddress, Int32(capacity))
        }
        return Array(frames.prefix(Int(count)))
    }

    @Test("a chain of records is walked innermost first, up to a return address of 0")
    func followsTheChain() {
        let stack = Stack(words: 32)
        stack.record(at: 2, caller: stack.address(6), returnAddress: 0x2000)
        stack.record(at: 6, caller: stack.address(12), returnAddress: 0x3000)
        stack.record(at: 12, caller: stack.address(20), returnAddress: 0x4000)
        stack.record(at: 20, caller: 0, returnAddress: 0)
        #expect(walk(stack, fp: stack.address(2)) == [0x1000, 0x2000, 0x3000, 0x4000])
    }

    @Test("a caller's frame pointer outside the bounds, misaligned, or not above the current one ends the walk")
    func stopsAtABadPointer() {
        let stack = Stack(words: 32)
        stack.record(at: 2, caller: stack.high + 64, returnAddress: 0x2000)
        #expect(walk(stack, fp: stack.address(2)) == [0x1000, 0x2000])
        stack.record(at: 2, caller: stack.address(6) + 3, returnAddress: 0x2000)
        stack.record(at: 6, caller: 0, returnAddress: 0x3000)
        #expect(walk(stack, fp: stack.address(2)) == [0x1000, 0x2000])
        // A record naming itself (a cycle) is followed once.
        stack.record(at: 2, caller: stack.address(2), returnAddress: 0x2000)
        #expect(walk(stack, fp: stack.address(2)) == [0x1000, 0x2000])
        stack.record(at: 8, caller: stack.address(4), returnAddress: 0x5000)
        stack.record(at: 4, caller: stack.address(8), returnAddress: 0x6000)
        #expect(walk(stack, fp: stack.address(8)) == [0x1000, 0x5000])
    }

    @Test("the first frame pointer outside the stack gives the instruction alone")
    func firstPointerOutside() {
        let stack = Stack(words: 8)
        #expect(walk(stack, fp: 0) == [0x1000])
        #expect(walk(stack, fp: stack.high) == [0x1000])
        // The last whole record fits; one word short of it does not.
        stack.record(at: 6, caller: 0, returnAddress: 0x2000)
        #expect(walk(stack, fp: stack.address(6)) == [0x1000, 0x2000])
        #expect(walk(stack, fp: stack.address(7)) == [0x1000])
        // Bounds too small for one record, or reversed, read nothing.
        #expect(walk(stack, fp: stack.address(0), low: stack.low, high: stack.low + 8) == [0x1000])
        #expect(walk(stack, fp: stack.address(0), low: stack.high, high: stack.low) == [0x1000])
    }

    @Test("a walk stops at its capacity")
    func boundedByCapacity() {
        let stack = Stack(words: 64)
        for index in stride(from: 0, to: 60, by: 2) {
            stack.record(at: index, caller: stack.address(index + 2), returnAddress: UInt64(0x2000 + index))
        }
        #expect(walk(stack, fp: stack.address(0), capacity: 5) == [0x1000, 0x2000, 0x2002, 0x2004, 0x2006])
        #expect(walk(stack, fp: stack.address(0), capacity: 1) == [0x1000])
        #expect(walk(stack, fp: stack.address(0), capacity: 0) == [])
        #expect(walk(stack, fp: stack.address(0)).count == 31)
    }

    @Test("a record the reader cannot read ends the walk")
    func readerFailure() {
        let stack = Stack(words: 16)
        stack.record(at: 0, caller: stack.address(4), returnAddress: 0x2000)
        stack.record(at: 4, caller: stack.address(8), returnAddress: 0x3000)
        var frames = [UInt64](repeating: 0, count: 8)
        // A reader that reads the first record and refuses the second.
        final class Reads { var count = 0 }
        let reads = Reads()
        let count = frames.withUnsafeMutableBufferPointer { buffer in
            lifetrace_walk_frames(0x1000, stack.address(0), stack.low, stack.high, { context, address, record in
                let reads = Unmanaged<Reads>.fromOpaque(context!).takeUnretainedValue()
                reads.count += 1
                guard reads.count == 1, let record else { return 0 }
                return lifetrace_read_frame_record(nil, address, record)
            }, Unmanaged.passUnretained(reads).toOpaque(), buffer.baseAddress, 8)
        }
        #expect(Array(frames.prefix(Int(count))) == [0x1000, 0x2000])
        #expect(reads.count == 2)
    }
}
