import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

extension Violation {
    /// The violation in the JSON output.
    public var json: JSONValue {
        .object([
            JSONMember("rule", .string(rule.id)),
            JSONMember("severity", .string(severity.rawValue)),
            JSONMember("ts", .int(timestamp)),
            JSONMember("sinceLaunch", .optional(sinceLaunch)),
            JSONMember("lifetime", .int(Int64(lifetime))),
            JSONMember("message", .string(message)),
            JSONMember("fact", .object([
                JSONMember("source", .string(fact.source)), JSONMember("document", .string(fact.document.title)),
                JSONMember("section", .string(fact.section)), JSONMember("quote", .string(fact.quote)),
                JSONMember("translated", .bool(fact.isTranslation)),
            ])),
            JSONMember("events", .array(events.map(\.json))),
        ])
    }
}

extension EventSummary {
    /// The event in the JSON output: the text form's fields, plus `sinceLaunch`.
    public var json: JSONValue {
        var members = [
            JSONMember("ts", .int(timestamp)),
            JSONMember("sinceLaunch", .optional(sinceLaunch)),
            JSONMember("type", .string(type.name)),
            JSONMember("stream", .string(stream.name)),
            JSONMember("thread", thread.number.map { .int(Int64($0)) } ?? .string("main")),
        ]
        if let name { members.append(JSONMember("name", .string(name))) }
        if let state { members.append(JSONMember("to", .string(state.name))) }
        if let scene { members.append(JSONMember("scene", .string(scene))) }
        for field in fields {
            let value: JSONValue =
                field.value == "true" ? .bool(true)
                : field.value == "false" ? .bool(false)
                : Int64(field.value).map(JSONValue.int) ?? .string(field.value)
            members.append(JSONMember(field.key, value))
        }
        return .object(members)
    }
}

extension LifetimeReport {
    /// The lifetime in the JSON output.
    public var json: JSONValue {
        .object([
            JSONMember("index", .int(Int64(index))),
            JSONMember("events", .int(Int64(eventCount))),
            JSONMember("launch", launch.json),
            JSONMember("busySource", .string(busySource.rawValue)),
            JSONMember("stalls", .array(stalls.map(\.json))),
            JSONMember("timeInStates", .object([
                JSONMember("view", .string(timeInStates.view.rawValue)),
                JSONMember("durations", .object(timeInStates.durations.map { JSONMember($0.state, .int($0.duration)) })),
            ])),
            JSONMember("droppedEvents", .int(droppedEvents)),
            JSONMember("end", end.json),
        ])
    }
}

extension LaunchReport {
    /// The launch in the JSON output.
    public var json: JSONValue {
        var members = [
            JSONMember("ts", .optional(timestamp)),
            JSONMember("kind", .string(kind.rawValue)),
            JSONMember("reason", .optional(reason)),
            JSONMember("pid", .optional(pid)),
            JSONMember("windowEnd", .string(windowEnd.rawValue)),
            JSONMember("duration", .optional(duration)),
            JSONMember("busyInWindow", .int(busyInWindow)),
            JSONMember("milestones", .object([
                JSONMember("willFinishLaunching", .optional(milestones.willFinishLaunching)),
                JSONMember("didFinishLaunchingEnd", .optional(milestones.didFinishLaunchingEnd)),
                JSONMember("firstActive", .optional(milestones.firstActive)),
                JSONMember("firstFrame", .optional(milestones.firstFrame)),
            ])),
        ]
        // Only when true, so that the output of traces with a `launch` event keeps its shape.
        if inferred { members.insert(JSONMember("inferred", .bool(true)), at: 2) }
        return .object(members)
    }
}

extension Stall {
    /// The stall in the JSON output.
    public var json: JSONValue {
        .object([
            JSONMember("start", .int(start)),
            JSONMember("sinceLaunch", .optional(sinceLaunch)),
            JSONMember("duration", .int(duration)),
            JSONMember("unfinished", .bool(unfinished)),
            JSONMember("work", work.map { $0.json } ?? .null),
            JSONMember("blame", .array(blame.map(\.json))),
        ])
    }
}

extension BlameEntry {
    /// The entry in the JSON output: kind, name, duration and the chain it ran in.
    public var json: JSONValue {
        .object([
            JSONMember("kind", .string(kind.rawValue)), JSONMember("name", .string(name)),
            JSONMember("duration", .int(duration)),
            JSONMember("chain", .array(chain.map(JSONValue.string))),
        ])
    }
}

extension LifetimeEnd {
    /// The ending in the JSON output.
    public var json: JSONValue {
        .object([
            JSONMember("kind", .string(kind.rawValue)),
            JSONMember("ts", .int(timestamp)),
            JSONMember("sinceLaunch", .optional(sinceLaunch)),
            JSONMember("code", .optional(code.map(Int64.init))),
            JSONMember("signal", .optional(signal.map(Int64.init))),
            JSONMember("facts", .array(facts.map(JSONValue.string))),
        ])
    }
}
