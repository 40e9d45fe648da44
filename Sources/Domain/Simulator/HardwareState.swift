import Foundation

/// The physical side of a simulated device that Single App Mode's options reach.
public struct HardwareState: Codable, Equatable, Sendable {
    public enum Orientation: String, CaseIterable, Codable, Sendable {
        case portrait, landscape
    }

    public var orientation: Orientation = .portrait
    /// 0 to 16 steps, as the volume buttons move it.
    public var volume = 8
    public var isSilent = false
    public var isScreenOff = false
    /// Features the user turned on; Single App Mode may force more on.
    public var userAccessibility: [AccessibilityFeature] = []
    /// Taps that reached the screen, so a test of "touch disabled" has something to count.
    public var tapsReceived = 0

    public init() {}
    public static let maximumVolume = 16
}

/// What a person can do to the device itself.
public enum HardwareControl: String, CaseIterable, Codable, Sendable {
    case tap, rotate, volumeUp, volumeDown, ringerSwitch, sleepWake, idle

    public var displayName: String {
        switch self {
        case .tap: "Tap the screen"
        case .rotate: "Rotate the device"
        case .volumeUp: "Press volume up"
        case .volumeDown: "Press volume down"
        case .ringerSwitch: "Flip the ringer switch"
        case .sleepWake: "Press the sleep/wake button"
        case .idle: "Leave the device untouched"
        }
    }
}

/// The accessibility features Single App Mode can turn on (`Enable…` options); the first four
/// can also be left to the user (`UserEnabledOptions`).
public enum AccessibilityFeature: String, CaseIterable, Codable, Sendable {
    case voiceOver, zoom, invertColors, assistiveTouch, speakSelection, monoAudio

    public var displayName: String {
        switch self {
        case .voiceOver: "VoiceOver"
        case .zoom: "Zoom"
        case .invertColors: "Invert Colors"
        case .assistiveTouch: "AssistiveTouch"
        case .speakSelection: "Speak Selection"
        case .monoAudio: "Mono Audio"
        }
    }

    /// The Single App Mode option that turns it on.
    var forcedBy: KeyPath<SingleAppMode.Options, Bool> {
        switch self {
        case .voiceOver: \.enableVoiceOver
        case .zoom: \.enableZoom
        case .invertColors: \.enableInvertColors
        case .assistiveTouch: \.enableAssistiveTouch
        case .speakSelection: \.enableSpeakSelection
        case .monoAudio: \.enableMonoAudio
        }
    }

    /// The user-enabled option that lets the user toggle it while locked; nil when Apple has none.
    var allowedBy: KeyPath<SingleAppMode.UserEnabledOptions, Bool>? {
        switch self {
        case .voiceOver: \.voiceOver
        case .zoom: \.zoom
        case .invertColors: \.invertColors
        case .assistiveTouch: \.assistiveTouch
        case .speakSelection, .monoAudio: nil
        }
    }
}

/// How Single App Mode treats one accessibility feature while it holds the device.
public enum AccessibilityRule: Equatable, Sendable {
    case forcedOn, userMayToggle, fixed
}

extension SimulatedDevice {
    public var hardwareState: HardwareState { hardware ?? HardwareState() }

    /// The Single App Mode payload holding the device now; nil when it is not locked by one.
    var activeSingleAppMode: SingleAppMode? {
        guard case .singleAppMode? = lock else { return nil }
        return policy[SingleAppMode.self]
    }

    /// The features on now: the user's, and those Single App Mode forces on.
    public var accessibilityOn: [AccessibilityFeature] {
        let forced = activeSingleAppMode.map { lock in AccessibilityFeature.allCases.filter { lock.options[keyPath: $0.forcedBy] } } ?? []
        return AccessibilityFeature.allCases.filter { forced.contains($0) || hardwareState.userAccessibility.contains($0) }
    }

    /// Who decides a feature now: nil when no Single App Mode holds the device (the user does).
    public func accessibilityRule(for feature: AccessibilityFeature) -> AccessibilityRule? {
        guard let lock = activeSingleAppMode else { return nil }
        if lock.options[keyPath: feature.forcedBy] { return .forcedOn }
        if let allowed = feature.allowedBy, lock.userEnabledOptions[keyPath: allowed] { return .userMayToggle }
        return .fixed
    }

    /// What Single App Mode has switched off, in the words the device frame shows.
    public var disabledHardware: [String] {
        guard let options = activeSingleAppMode?.options else { return [] }
        let switchedOff: [(Bool, String)] = [
            (options.disableTouch, "Touch"), (options.disableDeviceRotation, "Rotation"), (options.disableVolumeButtons, "Volume buttons"),
            (options.disableRingerSwitch, "Ringer switch"), (options.disableSleepWakeButton, "Sleep/wake button"),
            (options.disableAutoLock, "Auto-lock"),
        ]
        return switchedOff.filter(\.0).map(\.1)
    }
}
