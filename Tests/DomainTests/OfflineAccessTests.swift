import Domain
import Testing

/// Offline access is its own setting, whatever the authentication type.
@Suite struct OfflineAccessTests {
    func sdkAppOpen(_ authentication: Authentication) -> Run {
        var run = Run(Fixture.device(policy: DevicePolicy(authentication)))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        if authentication.type != .disabled { run.perform(.signIn(app: Fixture.kiosk.bundleID)) }
        return run
    }

    func offlineBeyondTheAllowance(_ run: inout Run) {
        run.perform(.setNetwork(.offline))
        run.perform(.advanceClock(minutes: 61))
    }

    @Test func theOfflineBlockerAppliesWhenAuthenticationIsDisabled() {
        var run = sdkAppOpen(Authentication(type: .disabled, offlineAccessEnabled: true, maximumOfflineMinutes: 60))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
        run.perform(.setNetwork(.offline))
        run.perform(.advanceClock(minutes: 60))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
        let late = run.perform(.advanceClock(minutes: 1))
        guard case .blocked(_, let reason) = run.device.screen else { Issue.record("expected the offline blocker"); return }
        #expect(reason.contains("Offline for 61 minutes"))
        #expect(late.message.contains("Offline for 61 minutes"))
    }

    @Test(arguments: AuthenticationType.allCases)
    func withOfflineAccessOffAnSDKAppDoesNotOpenOfflineWhateverTheAuthenticationType(_ type: AuthenticationType) {
        var run = sdkAppOpen(Authentication(type: type, offlineAccessEnabled: false))
        let offline = run.perform(.setNetwork(.offline))
        #expect(offline.result == .blocked)
        #expect(offline.message.contains("Offline access is off"))
    }

    @Test func afterTheOfflineBlockerTheUserSignsInAgainOnceOnline() {
        var run = sdkAppOpen(Authentication(type: .passcode, singleSignOn: true, offlineAccessEnabled: true, maximumOfflineMinutes: 60))
        offlineBeyondTheAllowance(&run)
        let online = run.perform(.setNetwork(.wifi))
        #expect(online.rule == "After the offline blocker the user signs in again")
        #expect(run.device.screen == .signIn(Fixture.kiosk.bundleID))
        // The blocker locked the shared session, so every SDK app asks again.
        run.perform(.home)
        run.perform(.launchApp(Fixture.notes.bundleID))
        #expect(run.device.screen == .signIn(Fixture.notes.bundleID))
        run.perform(.signIn(app: Fixture.notes.bundleID))
        #expect(run.device.screen == .app(Fixture.notes.bundleID))
    }

    @Test func withAuthenticationDisabledTheAppSimplyReopensOnceOnline() {
        var run = sdkAppOpen(Authentication(type: .disabled, offlineAccessEnabled: true, maximumOfflineMinutes: 60))
        offlineBeyondTheAllowance(&run)
        let online = run.perform(.setNetwork(.cellular))
        #expect(online.result == .done)
        #expect(online.rule == "After the offline blocker the app reopens: authentication is Disabled")
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
    }

    @Test func aShortOfflineSpellWithinTheAllowanceKeepsTheSession() {
        var run = sdkAppOpen(Authentication(type: .passcode, offlineAccessEnabled: true, maximumOfflineMinutes: 60))
        run.perform(.setNetwork(.offline))
        run.perform(.advanceClock(minutes: 30))
        run.perform(.setNetwork(.wifi))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
    }
}

@Suite struct AuthenticationWarningTests {
    @Test func singleSignOnWithAuthenticationDisabledWarnsThatItDoesNothing() {
        let warnings = Authentication(type: .disabled, singleSignOn: true, offlineAccessEnabled: true).warnings
        #expect(warnings.contains { $0.hasPrefix("Single sign-on does nothing") })
        #expect(Authentication(type: .passcode, singleSignOn: true, offlineAccessEnabled: true).warnings.isEmpty)
    }

    @Test func disabledAuthenticationWarnsThatTheOfflineRulesStillApply() {
        let noOffline = Authentication(type: .disabled, offlineAccessEnabled: false).warnings
        #expect(noOffline == ["Authentication is Disabled, yet with offline access off SDK apps do not open without a network."])
        let limited = Authentication(type: .disabled, offlineAccessEnabled: true, maximumOfflineMinutes: 480).warnings
        #expect(limited == ["Authentication is Disabled, yet after 480 minutes offline SDK apps show a blocker until the device is back online."])
    }

    @Test func anOrdinaryCombinationHasNoWarning() {
        #expect(Authentication(type: .usernamePassword, singleSignOn: false, offlineAccessEnabled: false).warnings.isEmpty)
        #expect(Authentication().warnings.isEmpty)
    }
}
