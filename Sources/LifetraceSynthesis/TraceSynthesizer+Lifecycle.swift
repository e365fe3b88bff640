import LifetraceFormat
/// Launches and the transitions between states: which ones happen, when, and how long they take.
/// Whether a move is allowed is LifecycleModel's to say (``SynthesizedLifeCycle``, through which
/// every emitted event passes); these functions only choose among the allowed moves.
extension TraceSynthesizer {
    /// Resets the per-lifetime state for a new process.
    mutating func startLifetime(scenes: [Symbol]) {
        life = Lifetime()
        life.scenes = scenes
        life.vsyncOrigin = now + Self.microseconds(random.uniform(0, 16.6) * 1e6)
        // Displays run a little off nominal 60 Hz.
        life.vsyncPeriod = 16_666_667 + Int64(random.bell(mean: 0, deviation: 900))
        // Thread ids grow through a process's life; the pool's threads were made at different times.
        var thread = UInt64(random.integer(in: 20_000...9_000_000))
        life.workerThreads = (0..<6).map { _ in
            thread += UInt64(random.integer(in: 1...700))
            return ThreadID.numbered(thread)
        }
        life.workerFreeAt = Array(repeating: 0, count: life.workerThreads.count)
    }

    /// A new process lifetime: a cold, prewarmed or background launch.
    mutating func launch() {
        let sceneBased = random.chance(0.78)
        let scenes = sceneBased ? (random.chance(0.12) ? Array(names.scenes.prefix(2)) : [names.scenes[0]]) : []
        switch random.pick([(0.48, 0), (0.2, 1), (0.32, 2)]) {
        case 2: backgroundLaunch(scenes: scenes)
        case let kind: foregroundLaunch(scenes: scenes, prewarmed: kind == 1)
        }
    }

    private mutating func foregroundLaunch(scenes: [Symbol], prewarmed: Bool) {
        let reason = random.pick(names.foregroundReasons)
        emit(.launch(reason: reason, background: false, prewarm: prewarmed, pid: nextPID()))
        if prewarmed {
            // The system ran the process ahead of time; it waits before UIApplicationMain goes on.
            advance(milliseconds: random.uniform(400, 3_000) + random.uniform(20, 80))
        } else {
            advance(milliseconds: random.bell(mean: 330, deviation: 70))
        }
        startLifetime(scenes: scenes)
        // The launch's busy interval stays under the 250 ms stall threshold.
        let finishLaunching = min(125, random.longTail(minimum: 38, maximum: 400))
        busy {
            $0.callback(.willFinishLaunching, milliseconds: $0.random.uniform(1.5, 11))
            $0.callback(.didFinishLaunching, milliseconds: finishLaunching) {
                for _ in 0..<$0.random.integer(in: 1...3) {
                    let name = $0.random.element(of: $0.names.launchSignposts)
                    $0.signpost(name, milliseconds: finishLaunching * $0.random.uniform(0.08, 0.25))
                }
            }
            if scenes.isEmpty && reason == $0.names.foregroundReasons[1].value {
                $0.callback(.openURL, milliseconds: $0.random.uniform(0.5, 6))
            }
            $0.connectScenes(milliseconds: 28)
            for scene in scenes {
                $0.callback(.sceneWillEnterForeground, scene: scene, milliseconds: $0.random.uniform(0.2, 2))
            }
        }
        advance(milliseconds: random.uniform(0.4, 4))
        emit(.state(to: .active, scene: .none))
        busy { $0.becomeActive() }
        nextVsyncWake()
        busy {
            $0.signpost($0.names.firstFrameSignpost, milliseconds: $0.random.uniform(2, 9))
            $0.emit(.frame(first: true))
        }
        life.interactive = true
        life.modeUntil = now + Self.microseconds(random.uniform(0.5, 3) * 1e9)
        advance(milliseconds: random.uniform(30, 400))
        busy { $0.emit(.mark(name: $0.names.firstScreenMark)) }
        phase = .active(until: now + activeDuration())
    }

    private mutating func backgroundLaunch(scenes: [Symbol]) {
        let reason = random.pick([
            (0.45, names.fetchReason), (0.3, names.notificationReason), (0.15, names.locationReason),
            (0.1, names.processingReason),
        ])
        emit(.launch(reason: reason, background: true, prewarm: false, pid: nextPID()))
        advance(milliseconds: random.bell(mean: 220, deviation: 50))
        startLifetime(scenes: scenes)
        life.backgroundSince = now
        busy {
            $0.callback(.willFinishLaunching, milliseconds: $0.random.uniform(1, 8))
            $0.callback(.didFinishLaunching, milliseconds: $0.random.uniform(12, 90))
            $0.backgroundWork(reason: reason)
        }
        phase = .background(until: now + Self.microseconds(random.uniform(0.8, 9) * 1e9))
    }

    /// The callback a background wake-up delivers, and the work it starts.
    private mutating func backgroundWork(reason: Symbol) {
        if reason == names.fetchReason {
            callback(.performFetch, milliseconds: random.uniform(1, 15))
        } else if reason == names.notificationReason {
            callback(.didReceiveRemoteNotification, milliseconds: random.uniform(1, 12))
        } else if reason == names.locationReason {
            let name = names.locationCallback
            advance(milliseconds: 0.02)
            emit(.callbackBegin(name: name, scene: .none))
            advance(milliseconds: random.uniform(0.5, 5))
            emit(.callbackEnd(name: name, scene: .none))
        } else {
            beginTask(lasting: random.uniform(800, 6_000))
        }
        spawnWorker(random.element(of: names.backgroundSignposts), milliseconds: random.longTail(minimum: 120, maximum: 2_500))
    }

    /// sceneWillConnect for each scene not yet connected.
    mutating func connectScenes(milliseconds: Double) {
        for scene in life.scenes where !life.connected.contains(scene) {
            callback(.sceneWillConnect, scene: scene, milliseconds: random.uniform(0.15, 1) * milliseconds)
            life.connected.append(scene)
        }
    }

    /// didBecomeActive and sceneDidBecomeActive, in one busy interval.
    private mutating func becomeActive() {
        callback(.didBecomeActive, milliseconds: random.uniform(0.8, 10))
        for scene in life.connected {
            callback(.sceneDidBecomeActive, scene: scene, milliseconds: random.uniform(0.3, 5))
        }
    }

    /// How long the user stays in the app: mostly seconds, sometimes a quarter of an hour.
    mutating func activeDuration() -> Int64 {
        Self.microseconds(random.longTail(minimum: 4, maximum: 900) * 1e9)
    }

    /// Active to Inactive: the system says so, then the app and its scenes resign.
    mutating func enterInactive() {
        emit(.state(to: .inactive, scene: .none))
        advance(milliseconds: random.uniform(0.1, 1))
        busy {
            for scene in $0.life.connected {
                $0.callback(.sceneWillResignActive, scene: scene, milliseconds: $0.random.uniform(0.2, 3))
            }
            $0.callback(.willResignActive, milliseconds: $0.random.uniform(0.3, 4))
        }
    }

    /// Inactive to Background, maybe taking a background task to finish work.
    mutating func enterBackground(allowTask: Bool) {
        advance(milliseconds: random.uniform(120, 600))
        emit(.state(to: .background, scene: .none))
        life.backgroundSince = now
        advance(milliseconds: random.uniform(0.1, 1))
        busy {
            for scene in $0.life.connected {
                $0.callback(.sceneDidEnterBackground, scene: scene, milliseconds: $0.random.uniform(0.5, 8))
            }
            let takesTask = allowTask && $0.random.chance(0.4)
            $0.callback(.didEnterBackground, milliseconds: $0.random.uniform(1.5, 20)) {
                if takesTask { $0.beginTask(lasting: $0.random.longTail(minimum: 900, maximum: 14_000)) }
            }
        }
        if allowTask && !life.connected.isEmpty && random.chance(0.08) {
            advance(milliseconds: random.uniform(200, 2_000))
            busy {
                for scene in $0.life.connected {
                    $0.callback(.sceneDidDisconnect, scene: scene, milliseconds: $0.random.uniform(0.3, 4))
                }
            }
            life.connected = []
        }
        phase = .background(until: now + Self.microseconds(random.uniform(0.4, 12) * 1e9))
    }

    /// A background task taken now, to end `lasting` milliseconds later.
    private mutating func beginTask(lasting milliseconds: Double) {
        let task = (id: nextTaskID, name: random.element(of: names.taskNames), end: now + Self.microseconds(milliseconds * 1e6))
        nextTaskID += 1
        emit(.bgtaskBegin(id: task.id, name: task.name))
        life.task = task
    }

    /// The end of an Active spell: usually to the background, sometimes only an interruption
    /// (a call, Notification Center) that leaves the app Inactive for a while.
    mutating func leaveActive() {
        enterInactive()
        if random.chance(0.15) {
            phase = .inactive(until: now + Self.microseconds(random.uniform(0.8, 7) * 1e9))
        } else {
            enterBackground(allowTask: true)
        }
    }

    /// The end of an interruption: back to Active, or on to the background.
    mutating func leaveInactive() {
        if random.chance(0.7) {
            emit(.state(to: .active, scene: .none))
            advance(milliseconds: random.uniform(0.1, 1))
            busy { $0.becomeActive() }
            phase = .active(until: now + activeDuration())
        } else {
            enterBackground(allowTask: true)
        }
    }

    /// Background to Active: willEnterForeground, scenes (re)connect, then activation.
    private mutating func enterForeground() {
        emit(.state(to: .inactive, scene: .none))
        advance(milliseconds: random.uniform(0.1, 1))
        busy {
            $0.connectScenes(milliseconds: 20)
            $0.callback(.willEnterForeground, milliseconds: $0.random.uniform(0.5, 12))
            for scene in $0.life.connected {
                $0.callback(.sceneWillEnterForeground, scene: scene, milliseconds: $0.random.uniform(0.2, 3))
            }
            if $0.life.protectedDataLocked {
                $0.callback(.protectedDataDidBecomeAvailable, milliseconds: $0.random.uniform(0.2, 2))
                $0.life.protectedDataLocked = false
            }
        }
        advance(milliseconds: random.uniform(0.4, 4))
        emit(.state(to: .active, scene: .none))
        busy {
            $0.becomeActive()
            if $0.random.chance(0.08) {
                $0.callback($0.random.chance(0.5) ? .openURL : .continueUserActivity, milliseconds: $0.random.uniform(1, 20))
            }
            if $0.random.chance(0.02) {
                $0.callback(.significantTimeChange, milliseconds: $0.random.uniform(0.2, 2))
            }
        }
        life.interactive = true
        life.modeUntil = now + Self.microseconds(random.uniform(0.5, 4) * 1e9)
        phase = .active(until: now + activeDuration())
    }

    /// The end of a background spell: suspension (usually), back to the foreground, or
    /// termination with willTerminate. The app's threads finish their work first.
    mutating func leaveBackground() {
        if let task = life.task {
            now = max(now, task.end)
            busy { $0.emit(.bgtaskEnd(id: task.id, name: task.name)) }
            life.task = nil
        }
        switch random.pick([(0.8, 0), (0.12, 1), (0.08, 2)]) {
        case 1:
            enterForeground()
        case 2:
            now = max(now, workersQuietAt) + Self.microseconds(random.uniform(5, 200) * 1e6)
            callback(.willTerminate, milliseconds: random.uniform(2, 40))
            advance(milliseconds: random.uniform(3, 30))
            emit(.exit(code: 0, signal: nil))
            phase = .notRunning(until: now + betweenLifetimes())
        default:
            now = max(now, workersQuietAt) + Self.microseconds(random.uniform(1, 60) * 1e6)
            emit(.state(to: .suspended, scene: .none))
            phase = .suspended(until: now + Self.microseconds(random.longTail(minimum: 4, maximum: 3_600) * 1e9))
        }
    }

    /// A suspended app is resumed (to the foreground, or for background work) or killed: purged
    /// by the system or swiped away by the user, either way with no notice.
    mutating func leaveSuspension() {
        switch random.pick([(0.5, 0), (0.18, 1), (0.32, 2)]) {
        case 0:
            emit(.state(to: .background, scene: .none))
            advance(milliseconds: random.uniform(0.3, 3))
            enterForeground()
        case 1:
            emit(.state(to: .background, scene: .none))
            life.backgroundSince = now
            advance(milliseconds: random.uniform(0.5, 4))
            let reason = random.chance(0.6) ? names.fetchReason : names.notificationReason
            busy { $0.backgroundWork(reason: reason) }
            phase = .background(until: now + Self.microseconds(random.uniform(0.3, 8) * 1e9))
        default:
            emit(.exit(code: nil, signal: 9))
            phase = .notRunning(until: now + betweenLifetimes())
        }
    }

    private mutating func betweenLifetimes() -> Int64 {
        Self.microseconds(random.longTail(minimum: 1.5, maximum: 1_800) * 1e9)
    }
}
