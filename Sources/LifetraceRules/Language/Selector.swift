import LifecycleModel
import LifetraceFormat
import LifetraceOutput

/// What a selector or an occurrence is about: the KIND of `KIND [NAME] [thread=…] [scene=…]`.
public enum OccurrenceKind: UInt8, Sendable, CaseIterable, Hashable {
    case callback, callbackEnd, signpost, signpostEnd, mark, frame, firstFrame
    case bgtaskBegin, bgtaskEnd, bgtaskExpire, launch, exit, state, stall

    /// The word written in rule files.
    public var word: String {
        switch self {
        case .callback: "callback"
        case .callbackEnd: "callback.end"
        case .signpost: "signpost"
        case .signpostEnd: "signpost.end"
        case .mark: "mark"
        case .frame: "frame"
        case .firstFrame: "first-frame"
        case .bgtaskBegin: "bgtask.begin"
        case .bgtaskEnd: "bgtask.end"
        case .bgtaskExpire: "bgtask.expire"
        case .launch: "launch"
        case .exit: "exit"
        case .state: "state"
        case .stall: "stall"
        }
    }

    /// Whether a NAME may follow the kind (a `state` requires one).
    var takesName: Bool {
        switch self {
        case .callback, .callbackEnd, .signpost, .signpostEnd, .mark, .bgtaskBegin, .bgtaskEnd, .bgtaskExpire, .state: true
        case .frame, .firstFrame, .launch, .exit, .stall: false
        }
    }

    /// Whether the kind's events run on a thread (`thread=`).
    var takesThread: Bool {
        switch self {
        case .launch, .exit, .state, .stall: false
        case .callback, .callbackEnd, .signpost, .signpostEnd, .mark, .frame, .firstFrame, .bgtaskBegin, .bgtaskEnd,
            .bgtaskExpire:
            true
        }
    }

    /// The bit of this kind in a mask of kinds.
    var bit: UInt32 { 1 << UInt32(rawValue) }
}

/// Which thread a selector accepts.
public enum ThreadFilter: String, Sendable, Hashable {
    case main, other
}

/// `KIND [NAME] [thread=main|other] [scene=NAME]`: which occurrences a rule looks at.
public struct Selector: Sendable, Hashable, CustomStringConvertible {
    /// The kind.
    public var kind: OccurrenceKind
    /// The name (exact or glob), or nil for any.
    public var name: NamePattern?
    /// The state a `state` selector is about.
    public var state: LifecycleState?
    /// The thread, or nil for any.
    public var thread: ThreadFilter?
    /// The scene (exact or glob), or nil for any.
    public var scene: NamePattern?

    /// The selector as written, normalised.
    public var description: String {
        var words = [kind.word]
        if let state { words.append(state.ruleWord) } else if let name { words.append(NameText.shown(name.text)) }
        if let thread { words.append("thread=\(thread.rawValue)") }
        if let scene { words.append("scene=\(NameText.shown(scene.text))") }
        return words.joined(separator: " ")
    }

    /// The kinds of occurrence the selector can match (`frame` matches the first frame too).
    var kinds: UInt32 { kind == .frame ? kind.bit | OccurrenceKind.firstFrame.bit : kind.bit }

    /// Parses `text`; errors name the offending word.
    static func parse(_ text: String) -> Result<Selector, SelectorError> {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first else { return .failure(SelectorError("an empty selector; expected KIND [NAME] [thread=main|other] [scene=NAME]")) }
        guard let kind = OccurrenceKind.allCases.first(where: { $0.word == first }) else {
            return .failure(SelectorError(
                "unknown kind \"\(first)\"; the kinds are " + OccurrenceKind.allCases.map(\.word).joined(separator: ", ")))
        }
        var selector = Selector(kind: kind)
        for word in words.dropFirst() {
            if word.hasPrefix("thread=") {
                guard kind.takesThread else { return .failure(SelectorError("\(kind.word) takes no thread=")) }
                guard let thread = ThreadFilter(rawValue: String(word.dropFirst(7))) else {
                    return .failure(SelectorError("\"\(word)\": thread= takes main or other"))
                }
                selector.thread = thread
            } else if word.hasPrefix("scene=") {
                guard kind == .callback || kind == .callbackEnd else {
                    return .failure(SelectorError("\(kind.word) takes no scene= (only callbacks have scenes)"))
                }
                let scene = String(word.dropFirst(6))
                guard !scene.isEmpty else { return .failure(SelectorError("scene= needs a name")) }
                selector.scene = NamePattern(scene)
            } else if word.contains("=") {
                return .failure(SelectorError("unknown filter \"\(word)\"; the filters are thread= and scene="))
            } else if selector.name != nil || selector.state != nil {
                return .failure(SelectorError("\"\(word)\": \(kind.word) takes one name at most"))
            } else {
                guard kind.takesName else { return .failure(SelectorError("\(kind.word) takes no name (\"\(word)\")")) }
                if kind == .state {
                    if word.contains("*") { return .failure(SelectorError("a glob in a place that takes none: state \(word)")) }
                    guard let state = LifecycleState(ruleWord: word) else {
                        return .failure(SelectorError(
                            "unknown state \"\(word)\"; the states are "
                                + LifecycleState.allCases.map(\.ruleWord).joined(separator: ", ")))
                    }
                    selector.state = state
                } else {
                    selector.name = NamePattern(word)
                }
            }
        }
        if kind == .state && selector.state == nil {
            return .failure(SelectorError("state needs the state it enters (inactive, active, background, suspended, not-running)"))
        }
        return .success(selector)
    }
}

/// Why a selector does not parse.
struct SelectorError: Error {
    var problem: String
    init(_ problem: String) { self.problem = problem }
}

extension LifecycleState {
    /// The state's name in rule files: `inactive`, `active`, `background`, `suspended`, `not-running`.
    public var ruleWord: String { self == .notRunning ? "not-running" : name }

    /// The state named `word` in a rule file.
    init?(ruleWord word: String) {
        guard let state = LifecycleState.allCases.first(where: { $0.ruleWord == word }) else { return nil }
        self = state
    }
}
