import Testing

@testable import LifetraceFormat

@Suite struct SymbolTableTests {
    @Test func internReturnsTheSameSymbolForTheSameString() {
        var table = SymbolTable()
        let a = table.intern("didBecomeActive")
        let b = table.intern("LoadDatabase")
        #expect(a != b)
        #expect(table.intern("didBecomeActive") == a)
        #expect(table[a] == "didBecomeActive")
        #expect(table.string(.none) == nil)
        #expect(table.count == 3)
    }

    @Test func knownCallbacksAreRecognised() {
        var table = SymbolTable()
        let known = table.intern("sceneWillConnect")
        let custom = table.intern("myOwnCallback")
        #expect(table.callback(known) == .sceneWillConnect)
        #expect(table.callback(custom) == nil)
        #expect(table.callback(.none) == nil)
        #expect(CallbackName.sceneWillConnect.isSceneCallback)
        #expect(!CallbackName.openURL.isLifecycleCallback)
    }

    @Test func eventTypesRoundTripTheirNames() {
        for type in EventType.allCases { #expect(EventType(name: type.name) == type) }
        for state in LifecycleState.allCases { #expect(LifecycleState(name: state.name) == state) }
        #expect(EventType(name: "callback") == nil)
        #expect(EventType.state.defaultStream == .system)
        #expect(EventType.mark.defaultStream == .app)
    }
}
