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
    /// Writes the lifetime as the JSON output spells it (docs/JSON.md), straight into `json`:
    /// `check --format json` writes one per lifetime as it ends.
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("index", Int64(index))
            json.member("events", Int64(eventCount))
            json.key("launch")
            launch.write(to: &json)
            json.member("busySource", busySource.rawValue)
            json.member("stalls", array: { json in
                for stall in stalls {
                    json.separate()
                    stall.write(to: &json)
                }
            })
            json.member("timeInStates", object: { json in
                json.member("view", timeInStates.view.rawValue)
                json.member("durations", object: { json in
                    for entry in timeInStates.durations { json.member(entry.state, entry.duration) }
                })
            })
            json.member("droppedEvents", droppedEvents)
            json.key("end")
            end.write(to: &json)
        }
    }
}

extension LaunchReport {
    /// Writes the launch as the JSON output spells it.
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("ts", timestamp)
            json.member("kind", kind.rawValue)
            // Only when true, so that the output of traces with a `launch` event keeps its shape.
            if inferred { json.member("inferred", true) }
            json.member("reason", reason)
            json.member("pid", pid)
            json.member("windowEnd", windowEnd.rawValue)
            json.member("duration", duration)
            json.member("busyInWindow", busyInWindow)
            json.member("milestones", object: { json in
                json.member("willFinishLaunching", milestones.willFinishLaunching)
                json.member("didFinishLaunchingEnd", milestones.didFinishLaunchingEnd)
                json.member("firstActive", milestones.firstActive)
                json.member("firstFrame", milestones.firstFrame)
            })
        }
    }
}

extension Stall {
    /// Writes the stall as the JSON output spells it.
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("start", start)
            json.member("sinceLaunch", sinceLaunch)
            json.member("duration", duration)
            json.member("unfinished", unfinished)
            json.key("work")
            if let work { work.write(to: &json) } else { json.null() }
            json.member("blame", array: { json in
                for entry in blame {
                    json.separate()
                    entry.write(to: &json)
                }
            })
        }
    }
}

extension BlameEntry {
    /// Writes the entry as the JSON output spells it: kind, name, duration and the chain it ran in.
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("kind", kind.rawValue)
            json.member("name", name)
            json.member("duration", duration)
            json.member("chain", strings: chain)
        }
    }
}

extension LifetimeEnd {
    /// Writes the ending as the JSON output spells it.
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("kind", kind.rawValue)
            json.member("ts", timestamp)
            json.member("sinceLaunch", sinceLaunch)
            json.member("code", code.map(Int64.init))
            json.member("signal", signal.map(Int64.init))
            json.member("facts", strings: facts)
        }
    }
}
