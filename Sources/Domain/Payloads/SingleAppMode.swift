/// Single App Mode (`com.apple.app.lock`): a supervised device runs one app until the
/// payload is removed.
public struct SingleAppMode: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("single-app-mode", displayName: "Single App Mode",
                                         summary: "Locks a supervised device to one app until the payload is removed.",
                                         combination: .oneApp, settings: SingleAppMode.self)

    /// Settings the user cannot change while locked; named after Apple's keys.
    public struct Options: Codable, Equatable, Sendable {
        public var disableTouch = false
        public var disableDeviceRotation = false
        public var disableVolumeButtons = false
        public var disableRingerSwitch = false
        public var disableSleepWakeButton = false
        public var disableAutoLock = false
        public var enableVoiceOver = false
        public var enableZoom = false
        public var enableInvertColors = false
        public var enableAssistiveTouch = false
        public var enableSpeakSelection = false
        public var enableMonoAudio = false

        public init() {}
    }

    /// Accessibility features the user may turn on and off while locked.
    public struct UserEnabledOptions: Codable, Equatable, Sendable {
        public var voiceOver = false
        public var zoom = false
        public var invertColors = false
        public var assistiveTouch = false

        public init() {}
    }

    public var appIdentifier: String
    public var options: Options
    public var userEnabledOptions: UserEnabledOptions

    public init(appIdentifier: String, options: Options = Options(), userEnabledOptions: UserEnabledOptions = UserEnabledOptions()) {
        self.appIdentifier = appIdentifier
        self.options = options
        self.userEnabledOptions = userEnabledOptions
    }

    public static let optionFields: [BooleanOption<Options>] = [
        .init(\.disableTouch, "DisableTouch", "Disable touch"),
        .init(\.disableDeviceRotation, "DisableDeviceRotation", "Disable device rotation"),
        .init(\.disableVolumeButtons, "DisableVolumeButtons", "Disable volume buttons"),
        .init(\.disableRingerSwitch, "DisableRingerSwitch", "Disable ringer switch"),
        .init(\.disableSleepWakeButton, "DisableSleepWakeButton", "Disable sleep/wake button"),
        .init(\.disableAutoLock, "DisableAutoLock", "Disable auto-lock"),
        .init(\.enableVoiceOver, "EnableVoiceOver", "Enable VoiceOver"),
        .init(\.enableZoom, "EnableZoom", "Enable Zoom"),
        .init(\.enableInvertColors, "EnableInvertColors", "Enable Invert Colors"),
        .init(\.enableAssistiveTouch, "EnableAssistiveTouch", "Enable AssistiveTouch"),
        .init(\.enableSpeakSelection, "EnableSpeakSelection", "Enable Speak Selection"),
        .init(\.enableMonoAudio, "EnableMonoAudio", "Enable Mono Audio"),
    ]

    public static let userEnabledOptionFields: [BooleanOption<UserEnabledOptions>] = [
        .init(\.voiceOver, "VoiceOver", "VoiceOver"),
        .init(\.zoom, "Zoom", "Zoom"),
        .init(\.invertColors, "InvertColors", "Invert Colors"),
        .init(\.assistiveTouch, "AssistiveTouch", "AssistiveTouch"),
    ]

    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        errors["app"] = BundleID.problem(appIdentifier)
        return errors
    }
}

/// One Yes/No setting of a payload: where it lives, its key in the exported file, its label.
public struct BooleanOption<Root>: Sendable {
    // Key paths into our own value types are immutable and safe to share.
    public nonisolated(unsafe) let keyPath: WritableKeyPath<Root, Bool>
    public let appleKey: String
    public let label: String

    public init(_ keyPath: WritableKeyPath<Root, Bool>, _ appleKey: String, _ label: String) {
        self.keyPath = keyPath
        self.appleKey = appleKey
        self.label = label
    }
}

extension PayloadKind {
    public static var singleAppMode: PayloadKind { SingleAppMode.kind }
}

extension SingleAppMode: ApplePayloadSettings {
    /// One app for the device: different apps are a conflict, and the device keeps its
    /// previous policy until one is removed.
    public static func combine(_ found: [Sourced<SingleAppMode>]) -> Combined<SingleAppMode> {
        let apps = Set(found.map(\.value.appIdentifier))
        guard apps.count == 1, let first = found.first else {
            return Combined(conflicting: found, warnings: [
                "Conflict: Single App Mode for different apps (\(apps.sorted().joined(separator: ", "))) reaches this device. It keeps its previous policy until one is removed.",
            ])
        }
        return Combined(first.value, from: found)
    }

    public static let applePayloadType = "com.apple.app.lock"
    public static let identifierSuffix = "app-lock"

    public var appleKeys: [(String, PropertyList)] {
        let options = Self.optionFields.map { ($0.appleKey, PropertyList.boolean(self.options[keyPath: $0.keyPath])) }
        let user = Self.userEnabledOptionFields.map { ($0.appleKey, PropertyList.boolean(userEnabledOptions[keyPath: $0.keyPath])) }
        // Options and UserEnabledOptions belong inside App; next to it, iOS ignores them.
        return [("App", .dictionary([("Identifier", .string(appIdentifier)), ("Options", .dictionary(options)),
                                     ("UserEnabledOptions", .dictionary(user))]))]
    }
}
