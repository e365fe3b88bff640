import Foundation
import LifecycleHost
import LifetraceFormat
import LifetraceRecorder

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordSession {
    /// Plays one step: the system view's `state` events first, then the app's callbacks.
    func play(_ step: ScenarioStep) throws(Interruption) {
        switch step {
        case .launch(let background, let reason, let url):
            guard child == nil else { throw .refused("launch: the app is already running") }
            try spawn(background: background, reason: reason)
            try send(.launch(LaunchOptions(reason: reason, background: background, url: url)),
                timeout: configuration.scenario.launchTimeout)
            region?.unlink()
        case .prewarmLaunch(let finishLaunching):
            guard child == nil else { throw .refused("launch: the app is already running") }
            try spawn(background: false, reason: "prewarm", prewarm: true)
            if finishLaunching {
                try self.finishLaunching()
            } else {
                // The host answers once it runs (its recorder attached): the stand-in for the
                // pre-main work a prewarm runs before the system holds the process.
                try send(.backgroundTaskCount, timeout: configuration.scenario.launchTimeout)
            }
            region?.unlink()
        case .finishLaunching:
            try requireRunning(step)
            try self.finishLaunching()
        case .pause(let duration):
            try pause(step, for: duration)
        case .activate:
            try requireRunning(step)
            try emitState(.active)
            try send(.activate)
        case .reactivate:
            // The OS bug repeats the callback; the system's state does not change.
            try requireRunning(step)
            guard systemState == .active else { throw .refused("reactivate: the app is not active") }
            try send(.activate)
        case .resignActive, .appSwitcher:
            try requireRunning(step)
            try resign()
        case .enterBackground:
            try requireRunning(step)
            try emitState(.background)
            try send(.enterBackground)
        case .enterForeground:
            try enterForeground(step)
        case .home:
            try home(step)
        case .reopen:
            try enterForeground(step)
            try emitState(.active)
            try send(.activate)
        case .interruption(let duration):
            try requireRunning(step)
            try resign()
            try pass(duration)
            try emitState(.active)
            try send(.activate)
        case .suspend:
            try suspend(step)
        case .resume:
            try resume(step)
        case .memoryWarning:
            // A suspended app executes no code: the system does not deliver it anything.
            guard systemState != .suspended else { return }
            try requireRunning(step)
            try send(.memoryWarning)
        case .openURL(let url):
            try requireRunning(step)
            try send(.openURL(url))
        case .purge, .forceQuit:
            guard let child else { throw .refused("\(step.name): the app is not running") }
            child.killAndReap()
            try recordExit()
        case .terminate:
            try terminate(step)
        case .terminateInactive:
            try terminateInactive(step)
        case .scheduledTask(let kind, let identifier, let limit):
            try requireRunning(step)
            try runScheduledTask(kind, identifier: identifier, limit: limit)
        case .wait(let duration):
            try pass(duration)
        case .sceneConnect(let scene):
            try requireRunning(step)
            try emitState(.background, scene: scene)
            try send(.sceneConnect(scene))
        case .sceneActivate(let scene):
            try play(.sceneWillEnterForeground(scene))
            try play(.sceneDidBecomeActive(scene))
        case .sceneWillEnterForeground(let scene):
            try requireRunning(step)
            try emitState(.inactive, scene: scene)
            try send(.sceneEnterForeground(scene))
        case .sceneDidBecomeActive(let scene):
            try requireRunning(step)
            try emitState(.active, scene: scene)
            try send(.sceneActivate(scene))
        case .sceneBackground(let scene):
            try requireRunning(step)
            try emitState(.inactive, scene: scene)
            try send(.sceneResignActive(scene))
            try emitState(.background, scene: scene)
            try send(.sceneEnterBackground(scene))
        case .sceneDisconnect(let scene):
            try requireRunning(step)
            try send(.sceneDisconnect(scene))
        }
    }

    private func has(_ fault: RecordFault) -> Bool { configuration.faults.contains(fault) }

    private func requireRunning(_ step: ScenarioStep) throws(Interruption) {
        guard child != nil else { throw .refused("\(step.name): the app is not running") }
        guard systemState != .suspended else { throw .refused("\(step.name): the app is suspended") }
    }

    private func resign() throws(Interruption) {
        if !has(.skipInactiveState) { try emitState(.inactive) }
        try send(.resignActive)
    }

    private func home(_ step: ScenarioStep) throws(Interruption) {
        try requireRunning(step)
        if systemState == .active { try resign() }
        if systemState != .background {
            try emitState(.background)
            try send(.enterBackground)
        }
    }

    private func enterForeground(_ step: ScenarioStep) throws(Interruption) {
        if systemState == .suspended { try resume(step) }
        try requireRunning(step)
        // From Inactive (UIKit's app-level callback at a scene-based launch) there is no move.
        if systemState != .inactive { try emitState(.inactive) }
        try send(.enterForeground)
    }

    /// Background -> Suspended: waits for the background tasks (expiring them at the limit), then
    /// stops the process and writes `state suspended` only once the stop took effect.
    private func suspend(_ step: ScenarioStep) throws(Interruption) {
        try requireRunning(step)
        guard systemState == .background else { throw .refused("suspend: the app is not in the background") }
        try awaitBackgroundTasks()
        if has(.runWhileSuspended) {
            try emitState(.suspended)
            try send(.memoryWarning)
            return
        }
        try stop()
    }

    private func stop() throws(Interruption) {
        try stopProcess()
        try emitState(.suspended)
    }

    /// SIGSTOP, and waits until the stop took effect; an app that cannot be stopped is killed.
    private func stopProcess() throws(Interruption) {
        guard let child else { throw .refused("\(currentStep): the app is not running") }
        child.send(SIGSTOP)
        let stopped = child.wait(until: { $0 == .stopped || $0.hasEnded }, timeout: .seconds(2)) { tick() }
        if child.status.hasEnded { throw try childEnded() }
        guard stopped else {
            child.killAndReap()
            try recordExit()
            throw .unresponsive(command: "SIGSTOP")
        }
    }

    /// Suspended -> Background: the `state` event is written before SIGCONT, so nothing the app
    /// does after it continues precedes it.
    private func resume(_ step: ScenarioStep) throws(Interruption) {
        guard let child, systemState == .suspended else { throw .refused("resume: the app is not suspended") }
        try emitState(.background)
        guard !has(.runWhileSuspended) else { return }
        child.send(SIGCONT)
        _ = child.wait(until: { $0 != .stopped }, timeout: .seconds(2)) { tick() }
        if child.status.hasEnded { throw try childEnded() }
    }

    private func awaitBackgroundTasks() throws(Interruption) {
        try awaitTasks(
            count: .backgroundTaskCount, expire: .expireBackgroundTasks, limit: configuration.scenario.backgroundTaskLimit)
    }

    /// Waits up to `limit` until the app answers `count` with 0; past it sends `expire` and gives
    /// the expiration handlers 1 s to end their tasks.
    private func awaitTasks(count: HostCommand, expire: HostCommand, limit: Duration) throws(Interruption) {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while try send(count) != "0" {
            if clock.now >= deadline {
                try send(expire)
                // Expiration handlers end their tasks on the main thread; give them a moment.
                let grace = clock.now + .seconds(1)
                while try send(count) != "0" && clock.now < grace { try pass(.milliseconds(10)) }
                return
            }
            try pass(.milliseconds(10))
        }
    }

    /// The launch callbacks (willFinishLaunching, didFinishLaunching) within the launch timeout.
    private func finishLaunching() throws(Interruption) {
        try send(.launch(LaunchOptions(reason: "user", background: false)), timeout: configuration.scenario.launchTimeout)
    }

    /// Holds the process stopped for `duration`, then continues it, writing no `state`: the
    /// system keeps a prewarmed process waiting for the user's launch. The process is stopped
    /// once its main thread waits in its run loop (seen in the drained events; at most 2 s), as a
    /// prewarmed process is held idle, not in the middle of a turn.
    private func pause(_ step: ScenarioStep, for duration: Duration) throws(Interruption) {
        try requireRunning(step)
        guard let child else { throw .refused("pause: the app is not running") }
        let idle = idleWatch
        _ = child.wait(until: { $0.hasEnded || idle.mainThreadIdle }, timeout: .seconds(2)) { tick() }
        if child.status.hasEnded { throw try childEnded() }
        try stopProcess()
        try pass(duration)
        child.send(SIGCONT)
        _ = child.wait(until: { $0 != .stopped }, timeout: .seconds(2)) { tick() }
        if child.status.hasEnded { throw try childEnded() }
    }

    /// Runs a registered scheduler task and waits up to `limit` for it to complete; past it the
    /// task is expired and its handler has 1 s to complete it.
    private func runScheduledTask(_ kind: ScheduledTaskKind, identifier: String, limit: Duration) throws(Interruption) {
        try send(.runScheduledTask(kind, identifier: identifier))
        try awaitTasks(count: .scheduledTaskCount, expire: .expireScheduledTasks, limit: limit)
    }

    /// The user swipes away an app the app switcher left Inactive: willTerminate with no
    /// didEnterBackground (the sequence iOS produces, Apple Developer Forums thread 732170), then
    /// the grace period and SIGKILL, as ``terminate(_:)``.
    private func terminateInactive(_ step: ScenarioStep) throws(Interruption) {
        try requireRunning(step)
        guard systemState == .inactive else { throw .refused("terminate-inactive: the app is not inactive") }
        try deliverWillTerminate()
    }

    /// Termination from the background: willTerminate, the grace period, then SIGKILL. A
    /// suspended app is killed without notice (willTerminate is not called while suspended).
    private func terminate(_ step: ScenarioStep) throws(Interruption) {
        guard let child else { throw .refused("terminate: the app is not running") }
        if has(.terminateWhileSuspended) {
            if systemState != .suspended {
                try home(step)
                try awaitBackgroundTasks()
                try stop()
            }
            // Wrong on purpose: the app runs willTerminate while the trace shows it suspended.
            child.send(SIGCONT)
        } else if systemState == .suspended {
            child.killAndReap()
            try recordExit()
            return
        } else {
            try home(step)
        }
        try deliverWillTerminate()
    }

    /// willTerminate, then the app must end within the grace period, counted from the call
    /// ("approximately five seconds to perform any tasks and return", UIApplicationDelegate,
    /// applicationWillTerminate): an app still in willTerminate, or still running, at its end is
    /// killed (SIGKILL), and the scenario goes on; the trace shows the kill.
    private func deliverWillTerminate() throws(Interruption) {
        guard let child else { throw .refused("terminate: the app is not running") }
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.scenario.terminationGrace
        do throws(Interruption) {
            try send(.terminate, timeout: configuration.scenario.terminationGrace)
        } catch {
            switch error {
            // The app ended as asked, before or while answering.
            case .ended: return
            // Killed at the end of the grace period, as the system does.
            case .unresponsive: return
            default: throw error
            }
        }
        let remaining = max(.zero, deadline - clock.now)
        if !child.wait(until: \.hasEnded, timeout: remaining, tick: { tick() }) {
            child.killAndReap()
        }
        try recordExit()
    }
}
