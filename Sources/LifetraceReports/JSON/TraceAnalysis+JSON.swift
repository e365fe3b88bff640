import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

extension Violation {
    /// Writes the violation as the JSON output spells it (docs/JSON.md).
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("rule", rule.id)
            json.member("severity", severity.rawValue)
            json.member("ts", timestamp)
            json.member("sinceLaunch", sinceLaunch)
            json.member("sinceStart", sinceStart)
            json.member("lifetime", Int64(lifetime))
            json.member("lifetimeNumber", Int64(lifetime + 1))
            json.member("message", message)
            if let fact {
                json.member("fact", object: { json in
                    json.member("source", fact.source)
                    json.member("document", fact.document.title)
                    json.member("section", fact.section)
                    json.member("quote", fact.quote)
                    json.member("translated", fact.isTranslation)
                })
            }
            if let location = rule.location { json.member("ruleFile", location) }
            if let why = rule.definition?.why { json.member("why", why) }
            json.member("events", each: events) { event, json in event.write(to: &json) }
        }
    }
}

extension EventSummary {
    /// Writes the event as the JSON output spells it: the text form's fields, plus `sinceLaunch`.
    /// Names, scenes and text fields are cut as every message cuts them (``NameText/shown(_:)``):
    /// a witness names the event, it does not copy the trace (1000 witnesses of one 1 MB name
    /// would be a gigabyte of output from a 291-byte trace).
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("ts", timestamp)
            json.member("sinceLaunch", sinceLaunch)
            json.member("type", type.name)
            json.member("stream", stream.name)
            json.key("thread")
            if let number = thread.number { json.value(number) } else { json.value("main") }
            if let name { json.member("name", NameText.shown(name)) }
            if let state { json.member("to", state.name) }
            if let scene { json.member("scene", NameText.shown(scene)) }
            for field in fields {
                json.key(escaping: field.key)
                if field.value == "true" || field.value == "false" {
                    json.value(field.value == "true")
                } else if let number = Int64(field.value) {
                    json.value(number)
                } else {
                    json.value(NameText.shown(field.value))
                }
            }
        }
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
            json.member("stalls", each: stalls) { stall, json in stall.write(to: &json) }
            // Only past the cap, so that the output of every other trace keeps its shape.
            if omittedStalls > 0 { json.member("omittedStalls", Int64(omittedStalls)) }
            json.member("timeInStates", object: { json in
                json.member("view", timeInStates.view.rawValue)
                json.member("durations", object: { json in
                    for entry in timeInStates.durations {
                        json.key(escaping: entry.state)
                        json.value(entry.duration)
                    }
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
            // Only when there is one, so that the output of other launches keeps its shape.
            if let abandonedAfter { json.member("abandonedAfter", abandonedAfter) }
            if neverOpened { json.member("neverOpened", true) }
            if let prewarm {
                json.member("prewarm", object: { json in
                    json.member("start", prewarm.start)
                    json.member("resume", prewarm.resume)
                    json.member("resumeFoundBy", prewarm.resumeFoundBy.rawValue)
                    json.member("busy", prewarm.busy)
                })
            }
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
            json.member("blame", each: blame) { entry, json in entry.write(to: &json) }
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
