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
        case .activate:
            try requireRunning(step)
            try emitState(.active)
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
        case .wait(let duration):
            try pass(duration)
        case .sceneConnect(let scene):
            try requireRunning(step)
            try emitState(.background, scene: scene)
            try send(.sceneConnect(scene))
        case .sceneActivate(let scene):
            try requireRunning(step)
            try emitState(.inactive, scene: scene)
            try send(.sceneEnterForeground(scene))
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
        try emitState(.inactive)
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
        guard let child else { throw .refused("suspend: the app is not running") }
        child.send(SIGSTOP)
        let stopped = child.wait(until: { $0 == .stopped || $0.hasEnded }, timeout: .seconds(2)) { tick() }
        if child.status.hasEnded { throw try childEnded() }
        guard stopped else {
            child.killAndReap()
            try recordExit()
            throw .unresponsive(command: "SIGSTOP")
        }
        try emitState(.suspended)
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
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.scenario.backgroundTaskLimit
        while try send(.backgroundTaskCount) != "0" {
            if clock.now >= deadline {
                try send(.expireBackgroundTasks)
                // Expiration handlers end their tasks on the main thread; give them a moment.
                let grace = clock.now + .seconds(1)
                while try send(.backgroundTaskCount) != "0" && clock.now < grace { try pass(.milliseconds(10)) }
                return
            }
            try pass(.milliseconds(10))
        }
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
        do throws(Interruption) {
            try send(.terminate)
        } catch {
            // The app ended as asked, before or while answering.
            if case .ended = error { return }
            throw error
        }
        if !child.wait(until: \.hasEnded, timeout: configuration.scenario.terminationGrace, tick: { tick() }) {
            child.killAndReap()
        }
        try recordExit()
    }
}
