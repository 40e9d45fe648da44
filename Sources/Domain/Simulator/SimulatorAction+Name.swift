extension SimulatorAction {
    /// The name each thing a person (or a script) can do to a simulated device goes by in a
    /// form's or the API's `action` field. The raw values are what clients send, so a case is
    /// never renamed; the API document and the parser's error message list `allCases`.
    public enum Name: String, CaseIterable, Sendable {
        case launchApp, home, requestLock, requestUnlock, startGuidedAccess, endGuidedAccess, restart
        case advanceClock, setLocation, setNetwork, setKeyboard, copy, paste, showKeyboard, signIn
        case emitLog, crash, setOSVersion, setAppVersion, setJailbroken, sendBeacon
        case connect, composeEmail, openLink, openMailto, useHardware, setAccessibility
    }

    /// The action's name, nil for what only the server does to a device (a policy, a command).
    public var name: Name? {
        switch self {
        case .launchApp: .launchApp
        case .home: .home
        case .requestLock: .requestLock
        case .requestUnlock: .requestUnlock
        case .startGuidedAccess: .startGuidedAccess
        case .endGuidedAccess: .endGuidedAccess
        case .restart: .restart
        case .advanceClock: .advanceClock
        case .setLocation: .setLocation
        case .setNetwork: .setNetwork
        case .setThirdPartyKeyboard: .setKeyboard
        case .copy: .copy
        case .paste: .paste
        case .showKeyboard: .showKeyboard
        case .signIn: .signIn
        case .emitLog: .emitLog
        case .crash: .crash
        case .setOSVersion: .setOSVersion
        case .setAppVersion: .setAppVersion
        case .setJailbroken: .setJailbroken
        case .sendBeacon: .sendBeacon
        case .connect: .connect
        case .composeEmail: .composeEmail
        case .openLink: .openLink
        case .openMailto: .openMailto
        case .useHardware: .useHardware
        case .setAccessibility: .setAccessibility
        case .applyPolicy, .fetchFeedback, .requestLogs, .clearGuidedAccessPasscode: nil
        }
    }
}
