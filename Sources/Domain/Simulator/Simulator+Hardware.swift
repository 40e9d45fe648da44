import Foundation

/// The screen, buttons and switches, and accessibility: Single App Mode's options decide what
/// still works while the device is locked to its app.
extension Step {
    mutating func use(_ control: HardwareControl) {
        let options = device.activeSingleAppMode?.options
        var state = device.hardwareState
        defer { device.hardware = state }
        func ignored(_ option: String, _ message: String) {
            record(control.displayName, rule: "Single App Mode: \(option)", .ignored, message)
        }
        switch control {
        case .tap:
            if state.isScreenOff { return record(control.displayName, rule: "The screen is off", .ignored, "Nothing happens: press sleep/wake first.") }
            if options?.disableTouch == true { return ignored("Disable touch", "Nothing happens: the screen does not respond to touch.") }
            state.tapsReceived += 1
            let target = device.foregroundApp.map(name) ?? "the home screen"
            record(control.displayName, rule: "Touch", .done, "The tap reaches \(target).")
        case .rotate:
            if options?.disableDeviceRotation == true { return ignored("Disable device rotation", "The screen stays \(state.orientation.rawValue).") }
            state.orientation = state.orientation == .portrait ? .landscape : .portrait
            record(control.displayName, rule: "Rotation", .done, "The screen turns to \(state.orientation.rawValue).")
        case .volumeUp, .volumeDown:
            if options?.disableVolumeButtons == true { return ignored("Disable volume buttons", "The volume stays at \(state.volume) of \(HardwareState.maximumVolume).") }
            state.volume = max(0, min(HardwareState.maximumVolume, state.volume + (control == .volumeUp ? 1 : -1)))
            record(control.displayName, rule: "Volume buttons", .done, "The volume is \(state.volume) of \(HardwareState.maximumVolume).")
        case .ringerSwitch:
            if options?.disableRingerSwitch == true {
                return ignored("Disable ringer switch", "The switch moves but the device stays \(state.isSilent ? "silent" : "in ring mode").")
            }
            state.isSilent.toggle()
            record(control.displayName, rule: "Ringer switch", .done, state.isSilent ? "Silent mode." : "Ring mode.")
        case .sleepWake:
            if options?.disableSleepWakeButton == true { return ignored("Disable sleep/wake button", "The screen stays \(state.isScreenOff ? "off" : "on").") }
            state.isScreenOff.toggle()
            let back = device.lock.map { " Still locked to \(name($0.app))." } ?? ""
            record(control.displayName, rule: "Sleep/wake button", .done, state.isScreenOff ? "The screen turns off." : "The screen turns on.\(back)")
        case .idle:
            if options?.disableAutoLock == true { return ignored("Disable auto-lock", "The screen stays on however long it is left.") }
            state.isScreenOff = true
            record(control.displayName, rule: "Auto-lock", .done, "After the auto-lock time the screen turns off.")
        }
    }

    mutating func setAccessibility(_ feature: AccessibilityFeature, on: Bool) {
        let action = "Turn \(feature.displayName) \(on ? "on" : "off")"
        var state = device.hardwareState
        switch device.accessibilityRule(for: feature) {
        case .forcedOn?:
            return record(action, rule: "Single App Mode: Enable \(feature.displayName)", on ? .ignored : .refused,
                          on ? "\(feature.displayName) is already on: Single App Mode turns it on." : "Single App Mode keeps \(feature.displayName) on.")
        case .fixed?:
            return record(action, rule: "Single App Mode: the user may toggle only the features the payload allows", .refused,
                          "While locked to \(device.lock.map { name($0.app) } ?? "its app"), \(feature.displayName) cannot be changed.")
        case .userMayToggle?, nil:
            break
        }
        state.userAccessibility.removeAll { $0 == feature }
        if on { state.userAccessibility.append(feature) }
        state.userAccessibility.sort { AccessibilityFeature.allCases.firstIndex(of: $0)! < AccessibilityFeature.allCases.firstIndex(of: $1)! }
        device.hardware = state
        let rule = device.activeSingleAppMode == nil ? "Accessibility settings" : "Single App Mode: the user may toggle \(feature.displayName)"
        record(action, rule: rule, .done, "\(feature.displayName) is \(on ? "on" : "off").")
    }
}
