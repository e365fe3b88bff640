import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

extension StallProfile {
    /// The profile as a JSON object (docs/JSON.md, "Stack samples").
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("ts", start)
            json.member("dur", duration)
            json.member("samples", Int64(sampleCount))
            json.member("blame", blameLine)
            if let blame {
                json.key("blameFrame")
                blame.write(to: &json)
            }
            if let blameLeaf {
                json.key("blameLeaf")
                blameLeaf.write(to: &json)
            }
            json.member("hottestSelf", each: hottestSelf) { count, json in count.write(to: &json) }
            json.member("hottestTotal", each: hottestTotal) { count, json in count.write(to: &json) }
            json.member("heaviestStack", each: heaviestStack) { frame, json in frame.write(to: &json) }
            json.member("heaviestSamples", Int64(heaviestCount))
        }
    }
}

extension StallProfile.Count {
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("function", frame.function)
            json.member("location", frame.location)
            json.member("app", frame.isApp)
            json.member("samples", Int64(samples))
        }
    }
}

extension FrameName {
    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("function", function)
            json.member("location", location)
            json.member("app", isApp)
        }
    }
}
