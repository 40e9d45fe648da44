import Foundation

/// Who may lock a device, who releases it and what survives a restart: Single App Mode is
/// released only by removing its payload; an app's own lock (ASAM) needs supervision and the
/// allowlist and ends on its request; assessment mode (AAC) needs the app's entitlement and
/// ends with the assessment or after eight hours; Guided Access is the user's, ended by its
/// passcode.
extension Step {
    mutating func requestLock(app bundleID: String, mode: LockRequestMode, confirm: Bool) {
        let modeName = mode == .autonomous ? "ASAM" : "AAC"
        let action = "\(name(bundleID)) requests lock (\(modeName))"
        guard let app = foregroundApp(bundleID, for: action) else { return }
        if let lock = device.lock {
            record(action, rule: "A lock request while locked fails; the device stays locked", .refused,
                   "Already locked by \(lock.modeName) in \(name(lock.app)); the device stays locked.")
            return
        }
        switch mode {
        case .autonomous:
            guard device.isSupervised else {
                record(action, rule: "ASAM needs a supervised device", .refused, "Refused: this device is not supervised.")
                return
            }
            guard device.policy[ASAMAllowlist.self]?.appIdentifiers.contains(bundleID) == true else {
                record(action, rule: "ASAM needs the app on the MDM allowlist", .refused,
                       "Refused: \(bundleID) is not in autonomousSingleAppModePermittedAppIDs.")
                return
            }
        case .assessment:
            guard app.hasAssessmentEntitlement else {
                record(action, rule: "AAC needs the com.apple.developer.edu-assessment-mode entitlement", .refused,
                       "Refused: \(app.name) lacks the assessment entitlement.")
                return
            }
        }
        guard confirm else {
            record(action, rule: "The user must confirm the lock", .refused, "Refused: the user answered No.")
            return
        }
        switch mode {
        case .autonomous:
            device.lock = .autonomous(app: bundleID)
            record(action, rule: "ASAM: supervised, allowlisted and confirmed", .done,
                   "Locked to \(app.name). It stays until the app unlocks or the device restarts.")
        case .assessment:
            device.lock = .assessment(app: bundleID, since: device.clock)
            record(action, rule: "AAC: entitled and confirmed", .done,
                   "Locked to \(app.name) for the assessment. Turned off: \(SimulatedDevice.assessmentRestrictions.joined(separator: ", ")).")
        }
    }

    mutating func requestUnlock(app bundleID: String) {
        let action = "\(name(bundleID)) requests unlock"
        guard foregroundApp(bundleID, for: action) != nil else { return }
        switch device.lock {
        case nil:
            record(action, rule: "Unlock needs a lock", .refused, "The device is not locked.")
        case .singleAppMode?:
            record(action, rule: "Single App Mode is released only by removing its payload", .refused,
                   "Refused: an admin must remove the Single App Mode payload.")
        case .guidedAccess?:
            record(action, rule: "Guided Access ends with its passcode", .refused, "Refused: triple-click and enter the passcode.")
        case .autonomous(let app)?, .assessment(let app, _)?:
            guard app == bundleID else {
                record(action, rule: "Only the app that locked may unlock", .refused, "Refused: \(name(app)) holds the lock.")
                return
            }
            let mode = device.lock?.modeName ?? ""
            device.lock = nil
            record(action, rule: "The app releases its own \(mode)", .done, "Unlocked; the device is free again.")
        }
    }

    mutating func startGuidedAccess(passcode: String) {
        let action = "Triple-click: start Guided Access"
        guard let bundleID = device.foregroundApp else {
            record(action, rule: "Guided Access locks the app on screen", .refused, "Open an app first.")
            return
        }
        if let lock = device.lock {
            record(action, rule: "A lock request while locked fails; the device stays locked", .refused,
                   "Already locked by \(lock.modeName) in \(name(lock.app)).")
            return
        }
        guard (4...6).contains(passcode.count), passcode.allSatisfy(\.isASCII), passcode.allSatisfy(\.isNumber) else {
            record(action, rule: "Guided Access needs a 4 to 6 digit passcode", .refused, "Set a passcode of 4 to 6 digits.")
            return
        }
        device.lock = .guidedAccess(app: bundleID, passcode: passcode)
        record(action, rule: "Guided Access needs no supervision", .done,
               "\(name(bundleID)) is held by Guided Access until the passcode is entered or the device restarts.")
    }

    mutating func endGuidedAccess(passcode: String) {
        let action = "Triple-click: end Guided Access"
        guard case .guidedAccess(let app, let expected)? = device.lock else {
            record(action, rule: "Guided Access ends with its passcode", .refused, "Guided Access is not on.")
            return
        }
        guard passcode == expected else {
            record(action, rule: "Guided Access ends with its passcode", .refused, "Wrong passcode; \(name(app)) stays locked.")
            return
        }
        device.lock = nil
        record(action, rule: "Guided Access ends with its passcode", .done, "Guided Access ended.")
    }

    /// The MDM command an admin sends when the passcode is forgotten.
    mutating func clearGuidedAccessPasscode() {
        let action = "Command: clear Guided Access passcode"
        guard case .guidedAccess(let app, _)? = device.lock else {
            record(action, rule: "Clears a Guided Access session", .ignored, "Guided Access is not on; nothing to clear.")
            return
        }
        device.lock = nil
        record(action, rule: "The console may end Guided Access remotely", .done, "Guided Access in \(name(app)) ended by the console.")
    }

    mutating func restart() {
        var notes: [String] = []
        switch device.lock {
        case .singleAppMode(let app)?:
            notes.append("Single App Mode survives the restart: \(name(app)) opens again at once.")
        case let lock?:
            device.lock = nil
            notes.append("\(lock.modeName) in \(name(lock.app)) ended with the restart.")
        case nil:
            break
        }
        device.foregroundApp = device.lock?.app
        device.pasteboard = nil
        if let app = device.foregroundApp.flatMap(device.app) {
            notes.append(uploadCrashLog(of: app))
        }
        record("Restart", rule: "A restart ends every lock except Single App Mode", .done,
               (["The device restarted."] + notes.filter { !$0.isEmpty }).joined(separator: " "))
    }

    /// A check-in or an install/remove command brought a new effective policy.
    mutating func apply(_ policy: DevicePolicy?, conflict: [String]) {
        let action = "Policy from the console"
        guard let policy else {
            device.policyConflict = conflict
            record(action, rule: "Two Single App Mode apps are a conflict; the device keeps its previous policy", .refused,
                   "Conflict between \(conflict.joined(separator: " and ")); nothing changed on the device.")
            return
        }
        let previous = device.policy
        device.policy = policy
        device.policyConflict = []
        var notes: [String] = []
        let wanted = policy[SingleAppMode.self]?.appIdentifier
        if case .singleAppMode(let held)? = device.lock, held != wanted {
            device.lock = nil
            notes.append("Single App Mode for \(name(held)) removed: the device unlocks.")
        }
        if let wanted, device.lock != .singleAppMode(app: wanted) {
            if !device.isSupervised {
                notes.append("Single App Mode for \(name(wanted)) does not apply: the device is not supervised.")
            } else if device.app(wanted) == nil {
                notes.append("Single App Mode waits for \(wanted) to be installed.")
            } else {
                if let other = device.lock { notes.append("\(other.modeName) in \(name(other.app)) gives way.") }
                device.lock = .singleAppMode(app: wanted)
                device.foregroundApp = wanted
                notes.append("Single App Mode locks the device to \(name(wanted)).")
            }
        }
        if notes.isEmpty {
            let kinds = policy.payloads.map(\.kind.displayName)
            if kinds.isEmpty {
                notes.append("No profile reaches this device.")
            } else {
                notes.append((previous == policy ? "No change. In force: " : "Now in force: ") + kinds.joined(separator: ", ") + ".")
            }
        }
        record(action, rule: "The device applies its effective policy", .done, notes.joined(separator: " "))
    }
}
