import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// The TSDL text of the export's CTF 1.8 `metadata` file.
///
/// Layout (little endian, every field byte-aligned, so no padding anywhere):
/// - packet header: `magic` (0xC1FC1FC1), `stream_id`;
/// - packet context: `timestamp_begin`, `timestamp_end` (clock values), `content_size`,
///   `packet_size` (bits), `packet_seq_num`;
/// - event header: `id` (uint8), `timestamp` (64-bit clock value, ns);
/// - event context: `trace_stream` (system, app, or analysis for the findings) and `thread`
///   (0 = main, n + 1 = thread n, as in the binary format);
/// - the fields of ``CTFEventClass``.
enum CTFMetadata {
    /// The clock's name in the TSDL.
    static let clockName = "lifetrace_monotonic"

    /// The metadata text for a trace with `metadata` (its fields go to the `env` block).
    static func text(metadata: TraceMetadata) -> String {
        var text = """
            /* CTF 1.8 */

            typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
            typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
            typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
            typealias integer { size = 32; align = 8; signed = true; } := int32_t;
            typealias integer { size = 64; align = 8; signed = true; } := int64_t;

            trace {
                major = 1;
                minor = 8;
                byte_order = le;
                packet.header := struct {
                    uint32_t magic;
                    uint32_t stream_id;
                };
            };

            env {
                domain = "lifetrace";
                tracer_name = "lifetrace";

            """
        for (key, value) in environment(metadata) {
            text += "    \(key) = \(literal(value));\n"
        }
        text += """
            };

            clock {
                name = \(clockName);
                description = "the trace's monotonic clock, ns (timestamps of the Lifetrace trace)";
                freq = 1000000000;
                precision = 0;
                offset_s = 0;
                offset = 0;
                absolute = false;
            };

            typealias integer { size = 64; align = 8; signed = false; map = clock.\(clockName).value; } := clock_ns_t;

            \(enumeration("lifecycle_state_t", LifecycleState.allCases.map { ($0.name, Int($0.rawValue)) }))
            \(enumeration("trace_stream_t", [("system", 0), ("app", 1), ("analysis", 2)]))
            \(enumeration("frame_first_t", [("unknown", 0), ("not_first", 1), ("first", 2)]))
            \(enumeration("severity_t", Severity.allCases.enumerated().map { ($1.rawValue, $0) }))
            \(enumeration("launch_kind_t", LaunchKind.allCases.enumerated().map { ($1.rawValue, $0) }))
            \(enumeration("window_end_t", CTFTraceWriter.windowEnds.enumerated().map { ($1.rawValue, $0) }))
            \(enumeration("interval_kind_t", [("callback", 0), ("signpost", 1), ("bgtask", 2)]))
            \(enumeration("interval_ending_t", [("ended", 0), ("expired", 1), ("enclosing_ended", 2), ("lifetime_ended", 3)]))
            \(enumeration("view_t", CTFTraceWriter.views.enumerated().map { ($1, $0) }))

            stream {
                id = 0;
                packet.context := struct {
                    clock_ns_t timestamp_begin;
                    clock_ns_t timestamp_end;
                    uint64_t content_size;
                    uint64_t packet_size;
                    uint64_t packet_seq_num;
                };
                event.header := struct {
                    uint8_t id;
                    clock_ns_t timestamp;
                };
                event.context := struct {
                    trace_stream_t trace_stream;
                    uint64_t thread;
                };
            };

            """
        for eventClass in CTFEventClass.all {
            text += "\nevent {\n    name = \(literal(eventClass.name));\n    id = \(eventClass.id);\n    stream_id = 0;\n"
            if !eventClass.fields.isEmpty {
                text += "    fields := struct {\n"
                for field in eventClass.fields { text += "        \(field.type) \(field.name);\n" }
                text += "    };\n"
            }
            text += "};\n"
        }
        return text
    }

    private static func enumeration(_ name: String, _ labels: [(String, Int)]) -> String {
        let body = labels.map { "\(literal($0.0)) = \($0.1)" }.joined(separator: ", ")
        return "typealias enum : uint8_t { \(body) } := \(name);"
    }

    /// The metadata fields as `env` entries: keys made into identifiers that clash with no TSDL
    /// keyword and with no other key.
    static func environment(_ metadata: TraceMetadata) -> [(String, String)] {
        var used: Set<String> = ["domain", "tracer_name"]
        var entries: [(String, String)] = []
        for field in metadata.fields {
            var key = String(field.key.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                    ? Character(scalar) : "_"
            })
            if key.isEmpty || key.first!.isNumber || keywords.contains(key) { key = "meta_" + key }
            var unique = key
            var suffix = 2
            while used.contains(unique) {
                unique = "\(key)_\(suffix)"
                suffix += 1
            }
            used.insert(unique)
            entries.append((unique, field.value))
        }
        return entries
    }

    /// A TSDL string literal: quotes, backslashes and control characters escaped.
    static func literal(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static let keywords: Set<String> = [
        "align", "callsite", "const", "char", "clock", "double", "enum", "env", "event", "floating_point",
        "float", "integer", "int", "long", "short", "signed", "stream", "string", "struct", "trace",
        "typealias", "typedef", "unsigned", "variant", "void", "_Bool", "_Complex", "_Imaginary", "true",
        "false", "TRUE", "FALSE",
    ]
}
