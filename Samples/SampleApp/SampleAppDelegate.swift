import Foundation
import LifecycleHost
import LifetraceRecorder

/// The sample app: a notes app that opens its database and builds its first screen at launch,
/// saves its state inside a background task when it enters the background, and drops its caches
/// on a memory warning.
///
/// `--heavy-launch` also indexes the notes for search on the main thread during launch: the
/// mistake the seeds warn about ("at launch, move tasks off the main thread"), which the
/// analyzer reports as a `launch-stall` blaming `IndexSearchCatalog`.
final class SampleAppDelegate: ApplicationDelegate, @unchecked Sendable {
    private var store: NoteStore?
    private var screen: FirstScreen?
    private var searchIndex: SearchIndex?
    private let heavyLaunch = CommandLine.arguments.contains("--heavy-launch")

    init() {}

    func willFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool {
        true
    }

    func didFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool {
        let recorder = application.recorder
        do {
            let store = try recorder.interval("OpenDatabase") { try NoteStore.open(directory: SampleAppDelegate.dataDirectory) }
            self.store = store
            screen = recorder.interval("BuildFirstScreen") { FirstScreen(notes: store.notes) }
            if heavyLaunch {
                searchIndex = recorder.interval("IndexSearchCatalog") {
                    SearchIndex(notes: store.notes, minimumDuration: .milliseconds(400))
                }
            }
        } catch {
            FileHandle.standardError.write(Data("sample app: \(error)\n".utf8))
            return false
        }
        return true
    }

    func didBecomeActive(_ application: HostApplication) {
        application.recorder.mark("ScreenShown")
    }

    func didEnterBackground(_ application: HostApplication) {
        guard let store else { return }
        let snapshot = screen?.visibleTitles ?? []
        // Saving takes a while: do it off the main thread, under a background task so the system
        // does not suspend the app half-way through.
        let task = SendableBox<BackgroundTaskIdentifier>(.invalid)
        task.value = application.beginBackgroundTask(withName: "SaveState") {
            application.endBackgroundTask(task.value)
        }
        DispatchQueue.global().async {
            application.recorder.interval("SaveState") { try? store.saveState(visibleTitles: snapshot) }
            application.endBackgroundTask(task.value)
        }
    }

    func didReceiveMemoryWarning(_ application: HostApplication) {
        searchIndex = nil
        screen?.dropThumbnails()
        application.recorder.mark("CachesPurged")
    }

    func open(_ application: HostApplication, url: URL) -> Bool {
        application.recorder.mark("OpenedURL")
        return true
    }

    func willTerminate(_ application: HostApplication) {
        try? store?.saveState(visibleTitles: screen?.visibleTitles ?? [])
    }

    /// Where the database lives: `SAMPLE_APP_DATA` if set, else a folder in the temporary directory.
    static var dataDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["SAMPLE_APP_DATA"] { return URL(fileURLWithPath: path) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-sample-app")
    }
}

/// The sample's scene delegate: marks when its scene comes and goes.
final class SampleSceneDelegate: SceneDelegate {
    init() {}
}

/// A mutable value shared with an escaping closure that runs on one thread at a time.
final class SendableBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
