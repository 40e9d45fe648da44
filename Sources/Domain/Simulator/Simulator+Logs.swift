import Foundation

/// The SDK's logging: level filter, Wi-Fi-only uploads, crash logs on next launch.
extension Step {
    mutating func emitLog(app bundleID: String, level: LogLevel, message: String, count: Int) {
        let burst = max(1, min(count, SimulatorAction.maximumBurst))
        let action = burst == 1 ? "\(name(bundleID)) logs \(level.displayName)" : "\(name(bundleID)) logs \(burst) × \(level.displayName)"
        guard let app = foregroundApp(bundleID, for: action) else { return }
        guard app.isSDKBuilt else {
            record(action, rule: "Only SDK apps send logs to the console", .ignored, "\(app.name) is not built with the SDK; nothing is kept.")
            return
        }
        let capturing = device.captureUntil.map { device.clock < $0 } ?? false
        guard capturing || device.policy[Logging.self]?.enabled == true else {
            record(action, rule: "Logging is off", .ignored, "Not kept: no logging payload enables it.")
            return
        }
        let configured = capturing ? LogLevel.debug : device.policy[Logging.self]?.level ?? .error
        guard configured.includes(level) else {
            record(action, rule: "Kept: \(configured.displayName) and more severe", .ignored,
                   "Not kept: \(level.displayName) is below the configured level.")
            return
        }
        let text = String(message.prefix(2_000))
        for index in 0..<burst {
            let line = burst == 1 ? text : "\(text) (\(index + 1) of \(burst))"
            device.pendingLogs.append(SimulatedLog(app: bundleID, kind: .application, level: level, message: line, loggedAt: device.clock,
                                                   appVersion: device.version(of: bundleID)))
        }
        trimPendingLogs()
        let rule = capturing ? "Capturing every level, as the console asked" : "Kept: \(configured.displayName) and more severe"
        record(action, rule: rule, .done, "Kept \(Counted.phrase(burst, "message"))" + uploadNote())
    }

    mutating func crash(app bundleID: String) {
        let action = "\(name(bundleID)) crashes"
        guard let app = foregroundApp(bundleID, for: action) else { return }
        device.crashedApps[bundleID] = device.clock
        if case .singleAppMode(let locked)? = device.lock, locked == bundleID {
            let note = uploadCrashLog(of: app)
            record(action, rule: "Single App Mode relaunches a crashing app", .done, "\(app.name) crashed and opened again at once.\(note)")
            return
        }
        device.foregroundApp = nil
        endOwnSession(of: bundleID)
        if device.lock?.app == bundleID {
            // The lock belonged to a process that is gone; iOS ends ASAM, AAC and Guided Access with it.
            device.lock = nil
        }
        record(action, rule: "A crash log uploads on the app's next launch", .done, "\(app.name) crashed; the crash log waits for its next launch.")
    }

    /// On launch the SDK queues the previous crash's log. Returns words for the timeline.
    mutating func uploadCrashLog(of app: SimulatedApp) -> String {
        guard app.isSDKBuilt, let crashedAt = device.crashedApps.removeValue(forKey: app.bundleID) else { return "" }
        let version = device.version(of: app.bundleID)
        device.pendingLogs.append(SimulatedLog(app: app.bundleID, kind: .crash, level: .error,
                                               message: Self.crashReport(of: app, version: version), loggedAt: crashedAt, appVersion: version))
        trimPendingLogs()
        return " The crash log from the last run is queued for upload."
    }

    /// A crash report as iOS writes one: headers, then the line that names the crash (its
    /// signature, what groups it on the console), then the crashed thread.
    static func crashReport(of app: SimulatedApp, version: String) -> String {
        """
        Process: \(app.name)
        Identifier: \(app.bundleID)
        Version: \(version)
        Exception Type: EXC_CRASH (SIGABRT)
        Termination Reason: \(app.name) crashed (the simulator's Crash control)
        Thread 0 Crashed:
        0   libsystem_kernel.dylib  __pthread_kill + 8
        1   libsystem_c.dylib  abort + 124
        """
    }

    mutating func requestLogs(captureMinutes: Int?) {
        if let minutes = captureMinutes {
            let minutes = max(1, min(minutes, 24 * 60))
            device.captureUntil = device.clock.addingTimeInterval(TimeInterval(minutes * 60))
            record("Command: capture logs for \(minutes) min", rule: "Every level is kept while capturing", .done,
                   "Capturing every level for \(minutes) minutes of device time." + uploadNote())
        } else {
            record("Command: send available logs", rule: "Logs upload when the network allows", .done,
                   "\(Counted.phrase(device.pendingLogs.count, "message")) available." + uploadNote())
        }
    }

    /// Runs after every action: kept messages leave when the network allows.
    mutating func uploadLogsIfPossible() {
        guard device.canUploadLogs, !device.pendingLogs.isEmpty else { return }
        uploaded = device.pendingLogs
        device.pendingLogs = []
    }

    func uploadNote() -> String {
        if device.pendingLogs.isEmpty { return "" }
        if device.canUploadLogs { return "; uploading now." }
        if device.network == .cellular { return "; waiting for Wi-Fi (send over Wi-Fi only)." }
        return "; waiting for a network."
    }

    mutating func trimPendingLogs() {
        let excess = device.pendingLogs.count - SimulatedDevice.pendingLogLimit
        if excess > 0 { device.pendingLogs.removeFirst(excess) }
    }
}
