import Domain

/// How a simulated device answers each queued command.
enum CommandRunner {
    struct Answer {
        let status: CommandStatus
        let summary: String
        var result: [String: [String: Int]]? = nil
    }

    static func run(_ command: DeviceCommand, on working: inout SimulatorService.Working) -> Answer {
        let device = working.record.state
        switch command.requestType {
        case .installProfile, .removeProfile:
            // Recorded when assignments change, never queued; nothing to do if one turns up.
            return Answer(status: .acknowledged, summary: command.summary)
        case .restartDevice:
            let outcome = working.run(.restart)
            return Answer(status: .acknowledged, summary: outcome.event.message)
        case .settings:
            let delivered = device.policy.all(ManagedAppConfiguration.self).filter { device.app($0.appIdentifier)?.isManaged == true }
            guard !delivered.isEmpty else {
                return Answer(status: .error, summary: "No managed app on this device has a configuration to receive.")
            }
            let names = delivered.map { config in "\(device.app(config.appIdentifier)?.name ?? config.appIdentifier) (\(config.keys.count) keys)" }
            return Answer(status: .acknowledged, summary: "Configuration delivered to " + names.joined(separator: ", ") + ".")
        case .managedApplicationFeedback:
            let unknown = command.apps.filter { device.app($0)?.isManaged != true }
            guard unknown.isEmpty else {
                return Answer(status: .error, summary: "Not installed as managed apps: \(unknown.joined(separator: ", ")).")
            }
            let outcome = working.run(.fetchFeedback(apps: command.apps, delete: command.deleteFeedback))
            return Answer(status: .acknowledged, summary: outcome.event.message, result: outcome.feedbackReport)
        case .requestLogs:
            if device.network == .cellular, device.policy[Logging.self]?.wifiOnly == true {
                return Answer(status: .notNow, summary: "Logs are sent over Wi-Fi only; the device will answer on Wi-Fi.")
            }
            let outcome = working.run(.requestLogs(captureMinutes: command.captureMinutes))
            let sent = outcome.uploadedLogs.count
            return Answer(status: .acknowledged, summary: outcome.event.message + (sent > 0 ? " Sent \(sent) message(s)." : ""))
        case .clearGuidedAccessPasscode:
            guard case .guidedAccess? = device.lock else {
                return Answer(status: .error, summary: "Guided Access is not on, so there is no passcode to clear.")
            }
            let outcome = working.run(.clearGuidedAccessPasscode)
            return Answer(status: .acknowledged, summary: outcome.event.message)
        }
    }
}
