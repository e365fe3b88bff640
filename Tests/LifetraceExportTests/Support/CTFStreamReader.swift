import Foundation
import Testing

/// Decodes a CTF export with nothing but what its TSDL `metadata` says: the event classes with
/// their fields in order, the enumerations' labels, and the fixed packet and event layout the
/// metadata declares (every field byte-aligned, little endian). Independent of the writer's code,
/// so that the tests compare what was written, not what was meant.
struct CTFStreamReader {
    /// A decoded field value.
    enum Value {
        case integer(Int64)
        case text(String)

        var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
        var text: String? { if case .text(let value) = self { value } else { nil } }
    }

    /// One event record.
    struct Record {
        var name: String
        var timestamp: UInt64
        var thread: UInt64
        var fields: [String: Value]
    }

    struct EventClass {
        var name: String
        var fields: [(type: String, name: String)]
    }

    let directory: String
    var classes: [Int: EventClass] = [:]
    /// Enumeration labels by type name and value.
    var enumerations: [String: [Int64: String]] = [:]
    /// The type of each field name, for looking labels up.
    var fieldTypes: [String: [String: String]] = [:]

    init(directory: String) throws {
        self.directory = directory
        let text = try String(contentsOfFile: directory + "/metadata", encoding: .utf8)
        for match in text.matches(of: /typealias enum : uint8_t \{ (.*?) \} := ([a-z_]+);/) {
            var labels: [Int64: String] = [:]
            for entry in match.1.matches(of: /"((?:[^"\\]|\\.)*)" = (\d+)/) { labels[Int64(entry.2)!] = String(entry.1) }
            enumerations[String(match.2)] = labels
        }
        for match in text.matches(of: /event \{\n    name = "([^"]+)";\n    id = (\d+);\n    stream_id = 0;\n((?:    fields := struct \{\n(?:        [a-z0-9_]+ [a-z_]+;\n)*    \};\n)?)\};/) {
            let fields = match.3.matches(of: /\ {8}([a-z0-9_]+) ([a-z_]+);/).map { (String($0.1), String($0.2)) }
            classes[Int(match.2)!] = EventClass(name: String(match.1), fields: fields)
            fieldTypes[String(match.1)] = Dictionary(fields.map { ($0.1, $0.0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The label of an enumeration field of `record`.
    func label(of field: String, in record: Record) -> String? {
        guard let type = fieldTypes[record.name]?[field], let value = record.fields[field]?.integer else { return nil }
        return enumerations[type]?[value]
    }

    /// Every record of `stream_0`, packet by packet.
    func records() throws -> [Record] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/stream_0")))
        var records: [Record] = []
        var packetStart = 0
        while packetStart + 48 <= bytes.count {
            var cursor = packetStart
            func unsigned(_ size: Int) -> UInt64 {
                var value: UInt64 = 0
                for index in 0..<size { value |= UInt64(bytes[cursor + index]) << (8 * index) }
                cursor += size
                return value
            }
            func string() -> String {
                let end = bytes[cursor...].firstIndex(of: 0) ?? bytes.count
                defer { cursor = end + 1 }
                return String(decoding: bytes[cursor..<end], as: UTF8.self)
            }
            #expect(unsigned(4) == 0xC1FC_1FC1, "packet magic")
            _ = unsigned(4)
            _ = unsigned(8)
            _ = unsigned(8)
            let contentBits = unsigned(8)
            let packetBits = unsigned(8)
            _ = unsigned(8)
            let contentEnd = packetStart + Int(contentBits / 8)
            while cursor < contentEnd {
                let id = Int(unsigned(1))
                let timestamp = unsigned(8)
                _ = unsigned(1)
                let thread = unsigned(8)
                guard let eventClass = classes[id] else {
                    Issue.record("event class \(id) is not declared in the metadata")
                    return records
                }
                var fields: [String: Value] = [:]
                for field in eventClass.fields {
                    switch field.type {
                    case "string": fields[field.name] = .text(string())
                    case "uint32_t": fields[field.name] = .integer(Int64(unsigned(4)))
                    case "int32_t": fields[field.name] = .integer(Int64(Int32(truncatingIfNeeded: unsigned(4))))
                    case "uint64_t", "int64_t", "clock_ns_t": fields[field.name] = .integer(Int64(bitPattern: unsigned(8)))
                    default: fields[field.name] = .integer(Int64(unsigned(1)))
                    }
                }
                records.append(Record(name: eventClass.name, timestamp: timestamp, thread: thread, fields: fields))
            }
            packetStart += Int(packetBits / 8)
        }
        return records
    }
}
