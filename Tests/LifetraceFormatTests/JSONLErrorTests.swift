import Testing

@testable import LifetraceFormat

@Suite struct JSONLErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var input: String
        var kind: TraceError.Kind
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { message }
    }

    static let cases: [Case] = [
        Case(input: "{\"ts\":1,\"type\":\"frame\"", kind: .syntax, line: 1, column: 23,
             message: "invalid JSON: Unexpected end of file during JSON parse."),
        Case(input: "{\"ts\" 1}", kind: .syntax, line: 1, column: 7,
             message: "invalid JSON: Invalid value around character 6."),
        Case(input: "[1,2]", kind: .syntax, line: 1, column: 1, message: "expected a JSON object"),
        Case(input: "{\"ts\":1,\"type\":\"frame\",\"ts\":2}", kind: .syntax, line: 1, column: 24,
             message: "duplicate field \"ts\""),
        Case(input: "{\"ts\":1}", kind: .missingField, line: 1, column: 1, message: "missing field \"type\""),
        Case(input: "{\"ts\":1,\"type\":7}", kind: .invalidValue, line: 1, column: 16, message: "\"type\" must be a string"),
        Case(input: "{\"ts\":1,\"type\":\"frame\"}\n{\"ts\":2, \"type\": \"teleport\"}", kind: .unknownType, line: 2,
             column: 18, message: "unknown type \"teleport\""),
        Case(input: "{\"ts\":1,\"type\":\"mark\",\"nmae\":\"x\"}", kind: .unknownField, line: 1, column: 23,
             message: "unknown field \"nmae\" for type \"mark\""),
        Case(input: "{\"ts\":1,\"type\":\"runloop.wake\",\"name\":\"x\"}", kind: .unknownField, line: 1, column: 31,
             message: "unknown field \"name\" for type \"runloop.wake\""),
        Case(input: "{\"type\":\"frame\"}", kind: .missingField, line: 1, column: 1,
             message: "missing field \"ts\" for type \"frame\""),
        Case(input: "{\"ts\":1,\"type\":\"mark\"}", kind: .missingField, line: 1, column: 1,
             message: "missing field \"name\" for type \"mark\""),
        Case(input: "{\"ts\":1,\"type\":\"state\"}", kind: .missingField, line: 1, column: 1,
             message: "missing field \"to\" for type \"state\""),
        Case(input: "{\"ts\":1,\"type\":\"bgtask.begin\"}", kind: .missingField, line: 1, column: 1,
             message: "missing field \"id\" for type \"bgtask.begin\""),
        Case(input: "{\"ts\":1.5,\"type\":\"frame\"}", kind: .invalidValue, line: 1, column: 7,
             message: "\"ts\" must be an integer in 64-bit range"),
        Case(input: "{\"ts\":1e3,\"type\":\"frame\"}", kind: .invalidValue, line: 1, column: 7,
             message: "\"ts\" must be an integer in 64-bit range"),
        Case(input: "{\"ts\":9223372036854775808,\"type\":\"frame\"}", kind: .invalidValue, line: 1, column: 7,
             message: "\"ts\" must be an integer in 64-bit range"),
        Case(input: "{\"ts\":\"1\",\"type\":\"frame\"}", kind: .invalidValue, line: 1, column: 7,
             message: "\"ts\" must be an integer in 64-bit range"),
        Case(input: "{\"ts\":1,\"type\":\"dropped\",\"count\":-3}", kind: .invalidValue, line: 1, column: 34,
             message: "\"count\" must be a non-negative integer"),
        Case(input: "{\"ts\":1,\"type\":\"signpost.begin\",\"name\":\"a\",\"id\":1.5}", kind: .invalidValue, line: 1,
             column: 49, message: "\"id\" must be an integer in 64-bit range"),
        Case(input: "{\"ts\":1,\"type\":\"callback\",\"name\":\"a\",\"dur\":-1}", kind: .invalidValue, line: 1,
             column: 44, message: "\"dur\" must be a non-negative integer"),
        Case(input: "{\"ts\":1152921504606846970,\"type\":\"callback\",\"name\":\"a\",\"dur\":10}", kind: .invalidValue,
             line: 1, column: 62, message: "\"dur\" takes the end past the largest timestamp (2^60 ns)"),
        Case(input: "{\"ts\":1,\"type\":\"exit\",\"code\":2147483648}", kind: .invalidValue, line: 1, column: 30,
             message: "\"code\" must be an integer in 32-bit range"),
        Case(input: "{\"ts\":1,\"type\":\"exit\",\"signal\":true}", kind: .invalidValue, line: 1, column: 32,
             message: "\"signal\" must be an integer in 32-bit range"),
        Case(input: "{\"ts\":1,\"type\":\"frame\",\"thread\":\"worker\"}", kind: .invalidValue, line: 1, column: 33,
             message: "\"thread\" must be \"main\" or a non-negative integer"),
        Case(input: "{\"ts\":1,\"type\":\"frame\",\"thread\":-1}", kind: .invalidValue, line: 1, column: 33,
             message: "\"thread\" must be \"main\" or a non-negative integer"),
        Case(input: "{\"ts\":1,\"type\":\"frame\",\"stream\":\"kernel\"}", kind: .invalidValue, line: 1, column: 33,
             message: "\"stream\" must be \"system\" or \"app\""),
        Case(input: "{\"ts\":1,\"type\":\"launch\",\"background\":1}", kind: .invalidValue, line: 1, column: 38,
             message: "\"background\" must be true or false"),
        Case(input: "{\"ts\":1,\"type\":\"mark\",\"name\":null}", kind: .invalidValue, line: 1, column: 30,
             message: "\"name\" must be a string"),
        Case(input: "{\"ts\":1,\"type\":\"state\",\"to\":\"asleep\"}", kind: .invalidValue, line: 1, column: 29,
             message: "\"to\" must be one of notRunning, inactive, active, background, suspended"),
        Case(input: "{\"ts\":1,\"type\":\"frame\"}\n{\"type\":\"meta\",\"app\":\"x\"}", kind: .invalidValue, line: 2,
             column: 9, message: "\"meta\" is allowed only on the first line"),
        Case(input: "{\"type\":\"meta\",\"build\":12}", kind: .invalidValue, line: 1, column: 24,
             message: "meta field \"build\" must be a string"),
        Case(input: "{\"ts\":1,\"type\":\"mark\",\"name\":\"é\",\"x\":1}", kind: .unknownField, line: 1, column: 34,
             message: "unknown field \"x\" for type \"mark\""),
    ]

    @Test(arguments: cases)
    func eachErrorNamesItsLineAndColumn(_ testCase: Case) {
        do throws(TraceError) {
            var reader = try JSONLTraceReader(bytes: Array(testCase.input.utf8), name: "bad.jsonl")
            while try reader.next() != nil {}
            Issue.record("no error")
        } catch {
            #expect(error.kind == testCase.kind)
            #expect(error.file == "bad.jsonl")
            #expect(error.location == .line(testCase.line, column: testCase.column))
            // Foundation words its syntax errors differently on other platforms; ours are exact.
            if testCase.message.hasPrefix("invalid JSON: ") {
                #expect(error.message.hasPrefix("invalid JSON: "))
            } else {
                #expect(error.message == testCase.message)
            }
        }
    }

    @Test func theOneLineDescriptionNamesFileLineAndColumn() {
        let error = TraceError(.unknownField, file: "run.jsonl", at: .line(12, column: 7), "unknown field \"nmae\"")
        #expect(error.description == "run.jsonl:12:7: unknown field \"nmae\"")
    }

    @Test func aMissingFileIsAnIOError() {
        #expect(throws: TraceError.self) { _ = try JSONLTraceReader(path: "/nonexistent/run.jsonl") }
        do {
            _ = try JSONLTraceReader(path: "/nonexistent/run.jsonl")
        } catch {
            #expect(error.kind == .io)
            #expect(error.file == "/nonexistent/run.jsonl")
        }
    }
}
