extension MetricKitWalker {
    /// One diagnostic: `version`, `diagnosticMetaData` (the version, build, device and OS, and the
    /// hang's or launch's duration, as columns; the rest as values) and `callStackTree`.
    mutating func diagnostic(_ value: MetricKitJSON, kind: String, position: Int, path: String) throws(Malformed) {
        guard let members = value.members else { throw malformed(path, "expected a diagnostic, found \(value.shown)") }
        payload.diagnostics.append(MetricKitPayload.Diagnostic(kind: kind, position: position, stacks: [], frames: []))
        let index = payload.diagnostics.count - 1
        for (key, member) in members {
            switch (key, member) {
            case ("version", .string(let text)):
                payload.diagnostics[index].version = text
                account("fieldDiagnostic.version")
            case ("diagnosticMetaData", .object):
                try diagnosticMetaData(member, index: index, path: "\(path).\(key)")
            case ("callStackTree", .object):
                try callStackTree(member, index: index, path: "\(path).\(key)")
            default:
                try field(member, path: key, diagnostic: index)
            }
        }
    }

    private mutating func diagnosticMetaData(_ value: MetricKitJSON, index: Int, path: String) throws(Malformed) {
        for (key, member) in value.members ?? [] {
            let column: WritableKeyPath<MetricKitPayload.Diagnostic, String?>? = switch key {
            case "appVersion": \.appVersion
            case "appBuildVersion": \.buildNumber
            case "deviceType": \.device
            case "osVersion": \.os
            default: nil
            }
            if let column, case .string(let text) = member {
                payload.diagnostics[index][keyPath: column] = text
                account("fieldDiagnostic.\(key == "appVersion" ? key : Self.columnName(key))")
            } else if key == "hangDuration" || key == "launchDuration", case .string(let text) = member {
                guard let nanoseconds = MetricKitMeasurement(text)?.nanoseconds, nanoseconds >= 0, nanoseconds < 1e18 else {
                    throw malformed("\(path).\(key)", "expected a duration such as \"2.5 sec\", found \(member.shown)")
                }
                payload.diagnostics[index].duration = Int64(nanoseconds.rounded())
                account("fieldDiagnostic.duration")
            } else {
                try field(member, path: "diagnosticMetaData.\(key)", diagnostic: index)
            }
        }
    }

    /// `callStackTree`: `callStackPerThread` and `callStacks`, each `threadAttributed` and
    /// `callStackRootFrames`, whose frames have `subFrames`: the functions they called. Walked
    /// with a stack of pending frames, not recursion, and at most ``MetricKitReader/frameLimit``
    /// frames in a payload.
    private mutating func callStackTree(_ value: MetricKitJSON, index: Int, path: String) throws(Malformed) {
        var tree = value
        var treePath = path
        // `MXCallStackTree.jsonRepresentation()` wraps the tree in one more `callStackTree`.
        if let members = tree.members, members.count == 1, members[0].key == "callStackTree", members[0].value.members != nil {
            tree = members[0].value
            treePath += ".callStackTree"
        }
        for (key, member) in tree.members ?? [] {
            switch (key, member) {
            case ("callStackPerThread", .bool(let perThread)):
                payload.diagnostics[index].callStackPerThread = perThread
                account("fieldDiagnostic.callStackPerThread")
            case ("callStacks", .array(let stacks)):
                for (stackIndex, stack) in stacks.enumerated() {
                    try callStack(stack, index: index, path: "\(treePath).callStacks[\(stackIndex)]")
                }
            default:
                try field(member, path: "callStackTree.\(key)", diagnostic: index)
            }
        }
    }

    private mutating func callStack(_ value: MetricKitJSON, index: Int, path: String) throws(Malformed) {
        guard let members = value.members else { throw malformed(path, "expected a call stack, found \(value.shown)") }
        let stack = payload.diagnostics[index].stacks.count
        payload.diagnostics[index].stacks.append(nil)
        for (key, member) in members {
            switch (key, member) {
            case ("threadAttributed", .bool(let attributed)):
                payload.diagnostics[index].stacks[stack] = attributed
                account("fieldStack.threadAttributed")
            case ("callStackRootFrames", .array(let roots)):
                // Pending frames: the JSON, its parent's index, its depth and its path.
                var pending = roots.enumerated().reversed().map { (json: $0.element, parent: -1, depth: 0, path: "\(path).\(key)[\($0.offset)]") }
                while let next = pending.popLast() {
                    let frameIndex = try frame(next.json, index: index, stack: stack, parent: next.parent, depth: next.depth, path: next.path)
                    if case .array(let children)? = next.json.members?.first(where: { $0.key == "subFrames" })?.value {
                        pending += children.enumerated().reversed().map {
                            (json: $0.element, parent: frameIndex, depth: next.depth + 1, path: "\(next.path).subFrames[\($0.offset)]")
                        }
                    }
                }
            default:
                try field(member, path: "callStack.\(key)", diagnostic: index)
            }
        }
    }

    /// One frame's fields (its `subFrames` are walked by the caller); its index.
    private mutating func frame(
        _ value: MetricKitJSON, index: Int, stack: Int, parent: Int, depth: Int, path: String
    ) throws(Malformed) -> Int {
        guard let members = value.members else { throw malformed(path, "expected a frame, found \(value.shown)") }
        guard payload.diagnostics.reduce(0, { $0 + $1.frames.count }) < MetricKitReader.frameLimit else {
            throw malformed(path, "more than \(MetricKitReader.frameLimit) frames in one payload")
        }
        var frame = MetricKitPayload.Frame(stack: stack, parent: parent, depth: depth)
        for (key, member) in members {
            switch (key, member) {
            case ("binaryUUID", .string(let text)):
                frame.binaryUUID = text
                account("fieldFrame.binaryUUID")
            case ("binaryName", .string(let text)):
                frame.binaryName = text
                account("fieldFrame.binaryName")
            case ("offsetIntoBinaryTextSegment", _):
                frame.offsetIntoBinaryTextSegment = UInt64(try address(member, path: "\(path).\(key)"))
                account("fieldFrame.offset")
            case ("address", _):
                frame.address = UInt64(try address(member, path: "\(path).\(key)"))
                account("fieldFrame.address")
            case ("sampleCount", _):
                frame.sampleCount = try count(member, path: "\(path).\(key)")
                account("fieldFrame.sampleCount")
            case ("subFrames", .array):
                continue
            default:
                try field(member, path: "frame.\(key)", diagnostic: index)
            }
        }
        payload.diagnostics[index].frames.append(frame)
        return payload.diagnostics[index].frames.count - 1
    }

    /// An address or offset: a whole number from 0 (a 64-bit address past 2^63 is written as a
    /// number JSON cannot hold exactly, and is refused).
    private func address(_ value: MetricKitJSON, path: String) throws(Malformed) -> Int64 {
        guard case .integer(let number) = value, number >= 0 else {
            throw malformed(path, "expected an address (a whole number from 0), found \(value.shown)")
        }
        return number
    }
}

extension MetricKitPayload.Frame {
    init(stack: Int, parent: Int, depth: Int) {
        self.init(
            stack: stack, parent: parent, depth: depth, binaryUUID: nil, binaryName: nil, offsetIntoBinaryTextSegment: nil, address: nil,
            sampleCount: nil, symbol: nil)
    }
}
