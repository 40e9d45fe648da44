import Domain

/// The help panel beside each payload form: what the payload does on a device, in the words of
/// the source documents, so an admin need not look elsewhere.
enum PayloadHelp {
    static func lines(for kind: PayloadKind) -> [String] {
        switch kind {
        case .singleAppMode:
            [
                "Supervised devices only. The device launches the app at once and stays in it.",
                "It survives a restart and returns to the app after sleep; a crashing app is relaunched.",
                "Only removing this payload releases the device. Install the app before assigning the profile.",
                "Exported as com.apple.app.lock; Options and UserEnabledOptions sit inside App.",
            ]
        case .asamAllowlist:
            [
                "Autonomous Single App Mode lets the listed apps lock the device themselves, and unlock it.",
                "A request fails on a device that is not supervised, for an app not on this list, when the user answers No, or when the device is already locked.",
                "Several profiles setting this list combine as an intersection, as iOS does: an app must be on every list.",
                "Exported as autonomousSingleAppModePermittedAppIDs in com.apple.applicationaccess.",
            ]
        case .dlp:
            [
                "Data loss prevention applies inside apps built with the SDK.",
                "When two profiles reach a device, the most restrictive answer wins for each setting.",
            ]
        case .geofence:
            [
                "SDK apps work only inside one of these areas; outside every area they show a blocker.",
                "Geofencing needs location services: when they are off (airplane mode, or turned off) it stops working and the areas are not enforced.",
                "Areas from every profile that reaches a device are combined.",
            ]
        case .logging:
            [
                "Levels from most to least severe: Error, Warning, Information, Debug.",
                "A device uploads messages at the chosen level and every more severe one.",
                "Wi-Fi only holds uploads until the device is on Wi-Fi. Crash logs upload at the next launch.",
            ]
        case .branding:
            ["The app logo shows on authentication screens; the splash logo on the loading and second sign-in screens."]
        case .authentication:
            [
                "Passcode or username and password protect SDK apps; with single sign-on one session serves every app of the organisation.",
                "Offline access sets how long an app may be used without reaching the console; past it the app shows a blocker.",
            ]
        case .managedAppConfig:
            ["The app reads this dictionary under com.apple.configuration.managed and must validate every key."]
        }
    }
}
