import Foundation
import LifecycleHost
import Testing

@Suite struct HostCommandTests {
    @Test func everyCommandSurvivesTheWire() {
        let commands: [HostCommand] = [
            .launch(LaunchOptions(reason: "url", background: false, url: URL(string: "notes://note/1"))),
            .launch(LaunchOptions(reason: "fetch", background: true)), .activate, .resignActive, .enterBackground,
            .enterForeground, .terminate, .memoryWarning, .openURL(URL(string: "https://example.com/a?b=c")!),
            .expireBackgroundTasks, .backgroundTaskCount, .sceneConnect("main"), .sceneDisconnect("main"),
            .sceneEnterForeground("main"), .sceneActivate("main"), .sceneResignActive("main"),
            .sceneEnterBackground("main"),
        ]
        for command in commands {
            #expect(HostCommand(wireText: command.wireText) == command, "\(command.wireText)")
        }
    }

    @Test func malformedCommandsAreRejected() {
        for text in ["", "launch", "launch sideways", "activate now", "open-url", "scene-connect", "fly"] {
            #expect(HostCommand(wireText: text) == nil, "\(text)")
        }
    }

    @Test func faultsParseFromTheEnvironmentList() {
        #expect(HostFault.parse("skip-resign-active,bogus,double-activate") == [.skipResignActive, .doubleActivate])
        #expect(HostFault.parse(nil) == [])
    }
}
