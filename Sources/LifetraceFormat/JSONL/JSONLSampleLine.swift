import Foundation

/// One JSONL line of the stack-sample records, `image`, `stack`, `sample` and `symbol`
/// (docs/JSONL.md, "Stack samples"), checked field by field; what it refers to (a stack defined
/// on an earlier line) is checked when it is applied (``JSONLSampledStacks``).
struct JSONLSampleLine {
    /// What the line says.
    enum Record {
        /// A loaded image.
        case image(LoadedImage)
        /// The definition of stack `id`: stack `parent` (nil: none) followed by `frames`, outermost first.
        case stack(id: Int64, parent: Int64?, frames: [UInt64])
        /// A sample of `thread` at `timestamp`, of stack `stack`.
        case sample(timestamp: Int64, thread: ThreadID, stack: Int64)
        /// What a symbolizer said of `address`.
        case symbol(address: UInt64, FrameSymbol)
    }

    /// The record.
    let record: Record
    /// The line's fields, to place the errors found when the record is applied.
    let fields: JSONLFields

    /// The fields of each record type, `type` included; no other is accepted.
    static let typeFields: [String: Set<String>] = [
        "image": ["ts", "type", "path", "buildId", "base", "size"],
        "stack": ["type", "id", "parent", "frames"],
        "sample": ["ts", "type", "thread", "stack"],
        "symbol": ["type", "address", "function", "file", "line"],
    ]

    /// The longest image path, function or file name, in UTF-8 bytes (as in the binary form).
    static let maxTextLength = 4096
    /// The longest build id, in bytes (128 hexadecimal digits).
    static let maxBuildIDBytes = 64
    /// The most hexadecimal digits of an address: 64 bits.
    static let maxAddressDigits = 16

    /// The line of `type` in `fields`, or nil when `type` is not one of these records.
    static func decode(type: String, fields: JSONLFields) throws(TraceError) -> JSONLSampleLine? {
        guard let allowed = typeFields[type] else { return nil }
        var fields = fields
        fields.type = type
        for member in fields.object.members where !allowed.contains(member.key) {
            throw TraceError(
                .unknownField, file: fields.file, at: .line(fields.line, column: fields.object.column(of: member.keyOffset)),
                "unknown field \"\(member.key)\" for type \"\(type)\"")
        }
        let record: Record
        switch type {
        case "image":
            let timestamp = try timestamp(fields)
            let path = try text("path", fields, required: true)
            let buildID = try buildID(fields)
            let base = try fields.requiredAddress("base")
            let size = try fields.requiredAddress("size")
            guard LoadedImage.fitsAddressSpace(base: base, size: size) else {
                throw fields.error(.invalidValue, at: fields.member("size"), "the image ends past the 64-bit address space (\"base\" + \"size\" > 2^64)")
            }
            record = .image(LoadedImage(timestamp: timestamp, path: path, buildID: buildID, base: base, size: size))
        case "stack":
            let id = try fields.requiredPositive("id")
            let parent = try fields.optionalPositive("parent")
            if let parent, parent >= id {
                throw fields.error(.invalidValue, at: fields.member("parent"), "\"parent\" must be a stack defined before this one (an id below \(id))")
            }
            record = .stack(id: id, parent: parent, frames: try frames(fields))
        case "sample":
            record = .sample(timestamp: try timestamp(fields), thread: try fields.thread(), stack: try fields.requiredPositive("stack"))
        default:  // "symbol"
            let address = try fields.requiredAddress("address")
            let function = try text("function", fields, required: true)
            let file = try text("file", fields, required: false)
            let line = try fields.optionalPositive("line") ?? 0
            guard line <= Int64(Int32.max) else {
                throw fields.error(.invalidValue, at: fields.member("line"), "\"line\" must be 1 to 2147483647 (left out when unknown)")
            }
            record = .symbol(address: address, FrameSymbol(function: function, file: file, line: Int(line)))
        }
        return JSONLSampleLine(record: record, fields: fields)
    }

    private static func timestamp(_ fields: JSONLFields) throws(TraceError) -> Int64 {
        let timestamp = try fields.requiredInteger("ts")
        guard TraceTime.contains(timestamp) else {
            throw fields.error(.invalidValue, at: fields.member("ts"), TraceTime.outOfRangeMessage(timestamp))
        }
        return timestamp
    }

    /// A string of at most ``maxTextLength`` UTF-8 bytes; absent and not required: empty.
    private static func text(_ key: String, _ fields: JSONLFields, required: Bool) throws(TraceError) -> String {
        let value = required ? try fields.requiredString(key) : try fields.optionalString(key) ?? ""
        guard value.utf8.count <= maxTextLength else {
            throw fields.error(.invalidValue, at: fields.member(key), "\"\(key)\" must be at most \(maxTextLength) bytes of UTF-8")
        }
        return value
    }

    /// The optional `buildId`: an even number of hexadecimal digits, at most 128; lower-cased.
    private static func buildID(_ fields: JSONLFields) throws(TraceError) -> String {
        guard let text = try fields.optionalString("buildId") else { return "" }
        guard text.utf8.count <= 2 * maxBuildIDBytes, let bytes = hexBytes(text) else {
            throw fields.error(
                .invalidValue, at: fields.member("buildId"),
                "\"buildId\" must be an even number of hexadecimal digits, at most \(2 * maxBuildIDBytes)")
        }
        return hexString(bytes)
    }

    /// The `frames` array: 1 to ``SampledStacks/maxDepth`` addresses, outermost first.
    private static func frames(_ fields: JSONLFields) throws(TraceError) -> [UInt64] {
        guard let member = fields.member("frames") else {
            throw fields.error(.missingField, at: nil, "missing field \"frames\" for type \"stack\"")
        }
        let limits = "\"frames\" must be an array of 1 to \(SampledStacks.maxDepth) addresses"
        guard member.kind == .array else { throw fields.error(.invalidValue, at: member, limits) }
        let elements = fields.object.elements(of: member)
        guard !elements.isEmpty, elements.count <= SampledStacks.maxDepth else {
            throw fields.error(.invalidValue, at: member, limits + " (it has \(elements.count))")
        }
        var frames: [UInt64] = []
        frames.reserveCapacity(elements.count)
        for element in elements {
            guard let address = fields.object.address(in: element) else {
                throw TraceError(
                    .invalidValue, file: fields.file, at: .line(fields.line, column: fields.object.column(of: element.lowerBound)),
                    "\"frames\" must hold addresses as strings of \"0x\" and 1 to \(maxAddressDigits) hexadecimal digits")
            }
            frames.append(address)
        }
        return frames
    }
}

extension JSONLFields {
    /// A required integer of at least 1 (a stack id, a line).
    func requiredPositive(_ key: String) throws(TraceError) -> Int64 {
        guard let value = try optionalPositive(key) else {
            throw error(.missingField, at: nil, "missing field \"\(key)\" for type \"\(type)\"")
        }
        return value
    }

    /// An optional integer of at least 1.
    func optionalPositive(_ key: String) throws(TraceError) -> Int64? {
        guard let value = try optionalInteger(key) else { return nil }
        guard value >= 1 else { throw error(.invalidValue, at: member(key), "\"\(key)\" must be a positive integer") }
        return value
    }

    /// A required address: a string of `0x` and 1 to 16 hexadecimal digits (either case).
    func requiredAddress(_ key: String) throws(TraceError) -> UInt64 {
        guard let member = member(key) else {
            throw error(.missingField, at: nil, "missing field \"\(key)\" for type \"\(type)\"")
        }
        guard let value = object.address(in: member.valueRange) else {
            throw error(
                .invalidValue, at: member,
                "\"\(key)\" must be a string of \"0x\" and 1 to \(JSONLSampleLine.maxAddressDigits) hexadecimal digits")
        }
        return value
    }
}

extension JSONLObject {
    /// The byte ranges of the elements of the array `member` holds, in order.
    func elements(of member: Member) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = Self.skipWhitespace(bytes, from: member.valueRange.lowerBound + 1)
        while index < member.valueRange.upperBound, bytes[index] != UInt8(ascii: "]") {
            let end = Self.endOfValue(bytes, from: index)
            ranges.append(index..<end)
            index = Self.skipWhitespace(bytes, from: end)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = Self.skipWhitespace(bytes, from: index + 1)
        }
        return ranges
    }

    /// The address written at `range`: a JSON string of `0x` and 1 to 16 hexadecimal digits, or nil.
    func address(in range: Range<Int>) -> UInt64? {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        var inner = Array(bytes[(range.lowerBound + 1)..<(range.upperBound - 1)])
        if inner.contains(UInt8(ascii: "\\")) {
            // Escaped characters are the characters they stand for (Foundation has checked the line).
            guard inner.count <= 6 * (2 + JSONLSampleLine.maxAddressDigits),
                let decoded = try? JSONSerialization.jsonObject(with: Data(bytes[range]), options: [.fragmentsAllowed]) as? String
            else { return nil }
            inner = Array(decoded.utf8)
        }
        guard inner.count >= 3, inner.count <= 2 + JSONLSampleLine.maxAddressDigits,
            inner[0] == UInt8(ascii: "0"), inner[1] == UInt8(ascii: "x")
        else { return nil }
        var value: UInt64 = 0
        for digit in inner.dropFirst(2) {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }
}
