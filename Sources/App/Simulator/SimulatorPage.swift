import Domain
import Foundation

/// The simulator page's model: the device frame, the controls that make sense right now, the
/// timeline and the command history.
struct SimulatorPage {
    struct AppIcon {
        let bundleID: String
        let name: String
        let color: String
        let traits: String
    }

    struct EventRow {
        let time: String
        let action: String
        let rule: String
        let result: String
        let message: String
    }

    struct ConfigRow {
        let name: String
        let value: String
        let note: String?
    }

    struct Preset {
        let value: String
        let label: String
        /// The choice the device is at now, so the list shows it after "Go".
        var selected = false
    }

    /// One accessibility feature's switch: what pressing it asks for, and who decides it now.
    struct AccessibilityToggle {
        let feature: String
        let label: String
        let isOn: Bool
        /// What the button sends: the opposite of now.
        let turnOn: String
        /// Who decides it under Single App Mode; nil without Single App Mode, where the button's
        /// name is the feature alone (an empty note rendered as "VoiceOver ()": a section over
        /// an empty string is not skipped).
        let note: String?
    }

    struct LockPrompt {
        let app: String
        let appName: String
        let mode: String
        let modeName: String
    }

    let pagePath: String
    let eventsPath: String
    let revisionPath: String
    let devicePath: String
    /// Where every control posts.
    let actionsPath: String
    let askAutonomousPath: String
    let askAssessmentPath: String
    let logsPath: String
    let name: String
    let model: String
    /// The frame's shape: an iPad's 3:4 or an iPhone's tall screen.
    let frameClass: String
    let osVersion: String
    let supervised: Bool
    let revision: Int
    let canAct: Bool
    let networkName: String
    let network: String
    let clockText: String
    let lockName: String?
    let lockApp: String?
    let assessmentRestrictions: [String]
    let conflict: String?
    let isHome: Bool
    let apps: [AppIcon]
    let openApp: AppIcon?
    let isSDKApp: Bool
    let appContent: Bool
    let signIn: Bool
    let blockedReason: String?
    let brandColor: String
    let appLogoPath: String?
    let configuration: [ConfigRow]
    let hasConfiguration: Bool
    let isAssessmentLocked: Bool
    let lockPrompt: LockPrompt?
    let locationText: String
    let locationOff: Bool
    let presets: [Preset]
    let pasteboardText: String?
    let pendingLogs: Int
    let uploadedLogs: Int
    let loggingText: String
    let keyboardThirdParty: Bool
    /// The open app's version, for the "update the app" control.
    let openAppVersion: String
    /// The custom settings the open SDK app received, and the format they read as.
    let customSettings: String?
    let customSettingsFormat: String
    let complianceName: String
    let complianceClass: String
    let isJailbroken: Bool
    let wipedText: String?
    /// The frame's indicators: what Single App Mode switched off, the features on, the ringer.
    let frameIndicators: [String]
    let isLandscape: Bool
    let isScreenOff: Bool
    let hardwareControls: [Preset]
    let accessibility: [AccessibilityToggle]
    /// What a server may present to the open app: each pinned certificate, or an interceptor's.
    let certificateChoices: [Preset]
    let events: [EventRow]
    let commands: DeviceCommandsView
    let controls: SimulatorControlInputs
    let tour: TourBanner?

    init(device: DeviceRecord, stored: SimulatorStateRecord, events: [SimulatorEventRecord], commands: DeviceCommandsView,
         uploadedLogs: Int, catalogColors: [String: String], canAct: Bool, prompt: LockPrompt?,
         controls: SimulatorControlInputs = SimulatorControlInputs(), tour: TourBanner? = nil) {
        self.tour = tour
        let state = stored.state
        pagePath = Site.Simulator.show.link(device.id)
        eventsPath = Site.Simulator.events.link(device.id)
        revisionPath = Site.Simulator.revision.link(device.id)
        devicePath = Site.Devices.show.link(device.id)
        actionsPath = Site.Simulator.act.link(device.id)
        askAutonomousPath = Site.Simulator.show(device.id, prompt: .autonomous)
        askAssessmentPath = Site.Simulator.show(device.id, prompt: .assessment)
        logsPath = Site.Logs.index(of: device.id)
        name = device.name
        model = device.model.rawValue
        frameClass = device.model == .iPhone ? "iphone" : "ipad"
        osVersion = state.osVersion ?? device.osVersion
        supervised = state.isSupervised
        revision = stored.revision
        self.canAct = canAct
        networkName = state.network.displayName
        network = state.network.rawValue
        clockText = Self.clockFormatter.string(from: state.clock)
        lockName = state.lock?.modeName
        lockApp = state.lock.map { state.app($0.app)?.name ?? $0.app }
        assessmentRestrictions = state.turnedOff
        conflict = state.policyConflict.isEmpty ? nil
            : "Single App Mode for \(state.policyConflict.joined(separator: " and ")) reaches this device. It keeps its previous policy until one is removed."
        let icons = state.apps.map { app in
            AppIcon(bundleID: app.bundleID, name: app.name, color: catalogColors[app.bundleID] ?? "#5b6b7f",
                    traits: [app.isManaged ? "managed" : "personal", app.isSDKBuilt ? "SDK" : nil].compactMap { $0 }.joined(separator: ", "))
        }
        apps = icons
        let screen = state.screen
        isHome = screen == .home
        openApp = state.foregroundApp.flatMap { bundleID in icons.first { $0.bundleID == bundleID } }
        isSDKApp = state.foregroundApp.flatMap(state.app)?.isSDKBuilt ?? false
        switch screen {
        case .app: (appContent, signIn, blockedReason) = (true, false, nil)
        case .signIn: (appContent, signIn, blockedReason) = (false, true, nil)
        case .blocked(_, let reason): (appContent, signIn, blockedReason) = (false, false, reason)
        case .home: (appContent, signIn, blockedReason) = (false, false, nil)
        }
        let branding = state.policy[Branding.self].flatMap { $0.enabled ? $0 : nil }
        brandColor = branding?.primaryColor.hex ?? "#1f5fbf"
        appLogoPath = branding.flatMap { $0.appLogo2x ?? $0.appLogo1x }.map { Site.image.link($0.id) }
        configuration = state.foregroundApp.flatMap(state.deliveredConfiguration(for:)).map {
            ReceivedConfiguration($0).entries.map { ConfigRow(name: $0.name, value: $0.value, note: $0.note) }
        } ?? []
        hasConfiguration = !configuration.isEmpty
        isAssessmentLocked = !assessmentRestrictions.isEmpty
        lockPrompt = prompt
        locationText = Self.locationText(state)
        locationOff = state.location == nil
        presets = Self.locationPresets(for: state.policy[Geofence.self]?.areas ?? [], current: state.location)
        pasteboardText = state.pasteboard.map { "“\($0.text)” from \(state.app($0.sourceApp)?.name ?? $0.sourceApp)" }
        pendingLogs = state.pendingLogs.count
        self.uploadedLogs = uploadedLogs
        loggingText = state.policy[Logging.self].map { $0.enabled ? "\($0.level.displayName) and more severe" + ($0.wifiOnly ? ", Wi-Fi only" : "") : "off" } ?? "off (no logging payload)"
        keyboardThirdParty = state.prefersThirdPartyKeyboard
        openAppVersion = state.foregroundApp.map(state.version(of:)) ?? ""
        let received = isSDKApp ? state.policy[CustomSettings.self] : nil
        customSettings = received?.text
        customSettingsFormat = received?.format.displayName ?? ""
        let compliance = state.complianceState
        complianceName = compliance.displayName
        complianceClass = compliance == .compliant ? "tag-ok" : "tag-danger"
        isJailbroken = state.isCompromised
        wipedText = state.wipedAt.map { "Enterprise wipe on \(Self.clockFormatter.string(from: $0)): the managed apps were removed." }
        let hardware = state.hardwareState
        let accessibilityOn = state.accessibilityOn
        frameIndicators = state.disabledHardware.map { "\($0) off" } + accessibilityOn.map { "\($0.displayName) on" }
            + [hardware.isSilent ? "Silent" : nil, "Volume \(hardware.volume)/\(HardwareState.maximumVolume)"].compactMap { $0 }
        isLandscape = hardware.orientation == .landscape
        isScreenOff = hardware.isScreenOff
        hardwareControls = HardwareControl.allCases.map { Preset(value: $0.rawValue, label: Self.buttonLabel($0)) }
        accessibility = Self.accessibilityToggles(state, on: accessibilityOn)
        certificateChoices = (state.policy[CertificatePinning.self]?.certificates ?? []).enumerated().map { index, certificate in
            Preset(value: "pinned-\(index + 1)", label: "Pinned: \(certificate.subject)")
        } + [Preset(value: "interceptor", label: "An inspecting proxy's certificate")]
        self.events = events.map { event in
            EventRow(time: Self.clockFormatter.string(from: event.deviceTime), action: event.action, rule: event.rule,
                     result: event.result.rawValue, message: event.message)
        }
        self.commands = commands
        self.controls = controls
    }

    /// Short enough for a row of buttons; the timeline uses the control's full name.
    private static func buttonLabel(_ control: HardwareControl) -> String {
        switch control {
        case .tap: "Tap screen"
        case .rotate: "Rotate"
        case .volumeUp: "Volume +"
        case .volumeDown: "Volume −"
        case .ringerSwitch: "Ringer switch"
        case .sleepWake: "Sleep/wake"
        case .idle: "Leave idle (auto-lock)"
        }
    }

    /// Under Single App Mode each feature is forced on, left to the user, or fixed; otherwise
    /// the user's own.
    private static func accessibilityToggles(_ state: SimulatedDevice, on: [AccessibilityFeature]) -> [AccessibilityToggle] {
        AccessibilityFeature.allCases.map { feature in
            let isOn = on.contains(feature)
            let note: String? = switch state.accessibilityRule(for: feature) {
            case nil: nil
            case .forcedOn?: "turned on by Single App Mode"
            case .userMayToggle?: "the user may toggle it"
            case .fixed?: "fixed while locked"
            }
            return AccessibilityToggle(feature: feature.rawValue, label: feature.displayName, isOn: isOn, turnOn: isOn ? "false" : "true", note: note)
        }
    }

    static let clockFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "d MMM, HH:mm"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_GB")
        return formatter
    }()
}
