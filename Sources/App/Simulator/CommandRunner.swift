import Domain

/// How a simulated device answers each queued command.
enum CommandRunner {
    static func run(_ command: DeviceCommand, on working: inout SimulatorService.Working) -> CommandReport {
        let device = working.record.state
        switch command.requestType {
        case .installProfile, .removeProfile:
            // Recorded when assignments change, never queued; nothing to do if one turns up.
            return CommandReport(status: .acknowledged, summary: command.summary)
        case .restartDevice:
            let outcome = working.run(.restart)
            return CommandReport(status: .acknowledged, summary: outcome.event.message)
        case .settings:
            let delivered = device.policy.all(ManagedAppConfiguration.self).filter { device.app($0.appIdentifier)?.isManaged == true }
            guard !delivered.isEmpty else {
                return CommandReport(status: .error, summary: "No managed app on this device has a configuration to receive.")
            }
            let names = delivered.map { config in "\(device.app(config.appIdentifier)?.name ?? config.appIdentifier) (\(config.keys.count) keys)" }
            return CommandReport(status: .acknowledged, summary: "Configuration delivered to " + names.joined(separator: ", ") + ".")
        case .managedApplicationFeedback:
            let unknown = command.apps.filter { device.app($0)?.isManaged != true }
            guard unknown.isEmpty else {
                return CommandReport(status: .error, summary: "Not installed as managed apps: \(unknown.joined(separator: ", ")).")
            }
            let outcome = working.run(.fetchFeedback(apps: command.apps, delete: command.deleteFeedback))
            return CommandReport(status: .acknowledged, summary: outcome.event.message,
                                 feedback: outcome.feedbackReport.map { $0.mapValues { $0.mapValues { JSONValue.number(Double($0)) } } })
        case .requestLogs:
            if device.network == .cellular, device.policy[Logging.self]?.wifiOnly == true {
                return CommandReport(status: .notNow, summary: "Logs are sent over Wi-Fi only; the device will answer on Wi-Fi.")
            }
            let outcome = working.run(.requestLogs(captureMinutes: command.captureMinutes))
            let sent = outcome.uploadedLogs.count
            return CommandReport(status: .acknowledged, summary: outcome.event.message + (sent > 0 ? " Sent \(Counted.phrase(sent, "message"))." : ""))
        case .clearGuidedAccessPasscode:
            guard case .guidedAccess? = device.lock else {
                return CommandReport(status: .error, summary: "Guided Access is not on, so there is no passcode to clear.")
            }
            let outcome = working.run(.clearGuidedAccessPasscode)
            return CommandReport(status: .acknowledged, summary: outcome.event.message)
        default:
            // Only Apple's MDM client runs these; they are never queued for a simulated device.
            return CommandReport(status: .error, summary: "A simulated device does not run \(command.requestType.rawValue): it is for devices enrolled in MDM.")
        }
    }
}
