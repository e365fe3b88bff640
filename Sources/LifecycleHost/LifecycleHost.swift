import Foundation
import LifetraceFormat
import LifetraceRecorder

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The stand-in for `UIApplicationMain` on Linux: starts the recorder, creates the app's
/// delegate at launch, runs the main run loop on the main thread and delivers the life cycle.
///
/// Under `lifetrace record` the supervisor plays the system over the control channel. Run on its
/// own, the host launches the app into the foreground, activates it, and on SIGTERM or SIGINT
/// takes it through willResignActive, didEnterBackground and willTerminate, then exits.
public enum LifecycleHost {
    /// The environment variable naming the trace file of a standalone run (read by the recorder,
    /// ``RecorderOutput/fromEnvironment(_:home:pid:now:)``).
    public static let outputEnvironmentKey = RecorderOutput.environmentKey

    /// Runs the app; never returns. A standalone run writes its trace to `LIFETRACE_OUTPUT` if set
    /// (the recorder reads it), else to `recorderOptions.output`.
    public static func main(
        delegate: any ApplicationDelegate.Type, sceneDelegate: (any SceneDelegate.Type)? = nil,
        recorderOptions: RecorderOptions = RecorderOptions()
    ) -> Never {
        var options = recorderOptions
        let environment = ProcessInfo.processInfo.environment
        let launchEnvironment: HostLaunchEnvironment
        do {
            launchEnvironment = try HostLaunchEnvironment(environment: environment)
        } catch {
            StandardError.write("lifecycle host: \(error.message)\n")
            exit(64)
        }
        let controlFD = environment[ControlChannel.environmentKey].flatMap { Int32($0) }
        // On Linux the host, not the kernel, knows how it launches the app and what it declares.
        if options.launchFacts == nil {
            options.launchFacts = launchEnvironment.launchFacts(environment: environment, supervised: controlFD != nil)
        }
        let recorder: Recorder
        do {
            recorder = try Recorder.start(options)
        } catch {
            StandardError.write("lifecycle host: \(String(describing: error))\n")
            exit(70)
        }
        // The main thread is busy from the process's start until its run loop first waits.
        recorder.runloopWake()
        let observer = MainRunLoopObserver(recorder: recorder)
        observer.install()

        let application = HostApplication(
            recorder: recorder, delegateType: delegate, sceneDelegateType: sceneDelegate,
            faults: HostFault.parse(environment[HostFault.environmentKey]))
        application.backgroundModes = launchEnvironment.backgroundModes
        // A standalone recorder seals its trace, with the `exit` and its code, from its exit handler.
        let finish: @Sendable () -> Never = { exit(0) }
        if let fd = controlFD {
            ControlChannel(fd: fd).start(application: application, onTerminate: finish)
        } else {
            StandaloneSystem.start(application: application, launch: launchEnvironment.launch, onTerminate: finish)
        }
        // A timer far in the future keeps the run loop from returning when it has no other source.
        RunLoop.main.add(Timer(timeInterval: 1e9, repeats: true) { _ in }, forMode: .default)
        while true { RunLoop.main.run() }
    }
}

/// The system's part when no supervisor runs the app: the launch (`LIFETRACE_LAUNCH`; a
/// foreground launch is activated, a background one stays in Background), then a clean
/// termination on SIGTERM or SIGINT.
enum StandaloneSystem {
    nonisolated(unsafe) static var signalSources: [any DispatchSourceSignal] = []

    static func start(application: HostApplication, launch: LaunchOptions, onTerminate: @escaping @Sendable () -> Never) {
        DispatchQueue.main.async {
            do {
                try application.perform(.launch(launch))
                if !launch.background { try application.perform(.activate) }
            } catch {
                StandardError.write("lifecycle host: \(String(describing: error))\n")
            }
        }
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                // Each step is taken only from a state that has it (an app launched into the
                // background is neither resigned nor sent to the background again).
                if application.applicationState == .active { _ = try? application.perform(.resignActive) }
                if application.applicationState == .inactive { _ = try? application.perform(.enterBackground) }
                let deadline = Date().addingTimeInterval(5)
                while application.openBackgroundTaskCount > 0 && Date() < deadline {
                    RunLoop.main.run(until: Date().addingTimeInterval(0.01))
                }
                _ = try? application.perform(.terminate)
                onTerminate()
            }
            source.resume()
            signalSources.append(source)
        }
    }
}
