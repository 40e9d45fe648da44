/// Data loss prevention, keyboards, and managed app configuration and feedback.
extension Step {
    /// DLP applies to SDK apps: the SDK enforces it inside the app.
    func dlp(for app: SimulatedApp) -> DataLossPrevention? {
        app.isSDKBuilt ? device.policy[DataLossPrevention.self] : nil
    }

    mutating func copy(app bundleID: String, text: String) {
        let action = "Copy in \(name(bundleID))"
        guard let app = foregroundApp(bundleID, for: action) else { return }
        let restricted = dlp(for: app)?.allowCopyPasteOut == false
        device.pasteboard = Pasteboard(text: String(text.prefix(1_000)), sourceApp: bundleID, restrictedToManaged: restricted,
                                       fromManagedApp: app.isManagedOrSDK)
        record(action, rule: restricted ? "Copy and paste out: No" : "Copy", .done,
               restricted ? "Copied; it can be pasted only into managed or SDK apps." : "Copied.")
    }

    mutating func paste(app bundleID: String) {
        let action = "Paste in \(name(bundleID))"
        guard let app = foregroundApp(bundleID, for: action) else { return }
        guard let board = device.pasteboard else {
            record(action, rule: "Paste needs something copied", .ignored, "The pasteboard is empty.")
            return
        }
        let source = name(board.sourceApp)
        if board.restrictedToManaged && !app.isManagedOrSDK {
            record(action, rule: "Copy and paste out: No", .blocked,
                   "Blocked: text copied in \(source) may be pasted only into managed or SDK apps, and \(app.name) is neither.")
            return
        }
        if dlp(for: app)?.allowCopyPasteInto == false && !board.fromManagedApp {
            record(action, rule: "Copy and paste into: No", .blocked,
                   "Blocked: \(app.name) accepts pastes only from managed or SDK apps, and \(source) is neither.")
            return
        }
        record(action, rule: "Managed open in: data may flow between managed apps", .done, "Pasted “\(board.text)” from \(source).")
    }

    mutating func setThirdPartyKeyboard(_ prefers: Bool) {
        device.prefersThirdPartyKeyboard = prefers
        record(prefers ? "Choose a third-party keyboard" : "Choose the system keyboard", rule: "Keyboard settings", .done,
               prefers ? "A third-party keyboard is the user's choice." : "The system keyboard is the user's choice.")
    }

    mutating func showKeyboard(app bundleID: String) {
        let action = "Type in \(name(bundleID))"
        guard let app = foregroundApp(bundleID, for: action) else { return }
        guard device.prefersThirdPartyKeyboard else {
            record(action, rule: "Keyboard settings", .done, "The system keyboard shows.")
            return
        }
        if dlp(for: app)?.allowThirdPartyKeyboards == false {
            record(action, rule: "Third-party keyboards: No", .blocked, "The system keyboard replaces the third-party keyboard in \(app.name).")
            return
        }
        var message = "The third-party keyboard shows."
        if case .assessment(let locked, _)? = device.lock, locked == bundleID {
            message += " Assessment mode does not block keyboard extensions; the app must refuse them itself."
        }
        record(action, rule: "Third-party keyboards allowed", .done, message)
    }

    /// A managed app reads its configuration at launch and counts how that went in its
    /// feedback dictionary, which the console can fetch.
    mutating func countConfigurationRead(by app: SimulatedApp) {
        guard let configuration = device.deliveredConfiguration(for: app.bundleID) else { return }
        let received = ReceivedConfiguration(configuration)
        var counters = device.feedback[app.bundleID] ?? [:]
        counters["configurationReads", default: 0] += 1
        counters["keysApplied", default: 0] += received.entries.count - received.defaultedCount
        counters["keysDefaulted", default: 0] += received.defaultedCount
        device.feedback[app.bundleID] = counters
    }

    /// Words for the timeline when a configuration names an app the user installed: it never
    /// reaches it, and the admin should see why.
    func unmanagedConfigurationNote(for app: SimulatedApp) -> String {
        guard !app.isManaged, device.policy.configuration(for: app.bundleID) != nil else { return "" }
        return " \(app.name) was installed by the user, so it receives no managed app configuration."
    }

    mutating func fetchFeedback(apps: [String], delete: Bool) {
        let wanted = apps.isEmpty ? device.apps.filter(\.isManaged).map(\.bundleID) : apps
        var report: [String: [String: Int]] = [:]
        for app in wanted where device.app(app)?.isManaged == true {
            report[app] = device.feedback[app] ?? [:]
            if delete { device.feedback[app] = nil }
        }
        feedbackReport = report
        record("Command: fetch managed app feedback", rule: delete ? "Feedback is deleted after reading, so the next read counts from zero"
               : "ManagedApplicationFeedback", .done,
               "Reported feedback of \(Counted.phrase(report.count, "app"))" + (delete ? " and cleared it." : "."))
    }
}
