import Domain
import Foundation
import Testing

/// Single App Mode's options on the device itself: what the screen, buttons and switches still
/// do, which accessibility features are on, and which the user may toggle.
@Suite struct SingleAppModeHardwareTests {
    func locked(_ configure: (inout SingleAppMode) -> Void) -> Run {
        var lock = SingleAppMode(appIdentifier: Fixture.kiosk.bundleID)
        configure(&lock)
        var run = Run(Fixture.device())
        run.perform(.applyPolicy(DevicePolicy(lock), conflict: []))
        return run
    }

    @Test func everyHardwareOptionSwitchesItsControlOff() {
        var run = locked { lock in
            lock.options.disableTouch = true
            lock.options.disableDeviceRotation = true
            lock.options.disableVolumeButtons = true
            lock.options.disableRingerSwitch = true
            lock.options.disableSleepWakeButton = true
            lock.options.disableAutoLock = true
        }
        let before = run.device.hardwareState
        for control in HardwareControl.allCases {
            let event = run.perform(.useHardware(control))
            #expect(event.result == .ignored, "\(control)")
            #expect(event.rule.hasPrefix("Single App Mode: Disable"), "\(control)")
        }
        #expect(run.device.hardwareState == before)
        #expect(run.device.disabledHardware == ["Touch", "Rotation", "Volume buttons", "Ringer switch", "Sleep/wake button", "Auto-lock"])
    }

    @Test func withoutTheOptionsEveryControlWorks() {
        var run = locked { _ in }
        #expect(run.perform(.useHardware(.tap)).message == "The tap reaches Kiosk.")
        run.perform(.useHardware(.rotate))
        run.perform(.useHardware(.volumeUp))
        run.perform(.useHardware(.ringerSwitch))
        var state = run.device.hardwareState
        #expect(state.orientation == .landscape && state.volume == 9 && state.isSilent && state.tapsReceived == 1)
        run.perform(.useHardware(.idle))
        #expect(run.device.hardwareState.isScreenOff)
        #expect(run.perform(.useHardware(.tap)).result == .ignored)
        #expect(run.perform(.useHardware(.sleepWake)).message == "The screen turns on. Still locked to Kiosk.")
        state = run.device.hardwareState
        #expect(!state.isScreenOff && state.tapsReceived == 1)
        #expect(run.device.disabledHardware.isEmpty)
    }

    @Test func volumeStaysWithinItsSteps() {
        var run = Run(Fixture.device())
        for _ in 0..<20 { run.perform(.useHardware(.volumeUp)) }
        #expect(run.device.hardwareState.volume == HardwareState.maximumVolume)
        for _ in 0..<20 { run.perform(.useHardware(.volumeDown)) }
        #expect(run.device.hardwareState.volume == 0)
    }

    @Test func enabledFeaturesAreOnAndStayOn() {
        var run = locked { lock in
            lock.options.enableVoiceOver = true
            lock.options.enableSpeakSelection = true
            lock.options.enableMonoAudio = true
        }
        #expect(run.device.accessibilityOn == [.voiceOver, .speakSelection, .monoAudio])
        #expect(run.perform(.setAccessibility(.voiceOver, on: false)).result == .refused)
        #expect(run.device.accessibilityOn.contains(.voiceOver))
        // Removing the payload releases the lock and the features it forced.
        run.perform(.applyPolicy(.empty, conflict: []))
        #expect(run.device.accessibilityOn.isEmpty)
    }

    @Test func theUserTogglesOnlyTheAllowedFeatures() {
        var run = locked { lock in
            lock.userEnabledOptions.zoom = true
            lock.userEnabledOptions.invertColors = true
        }
        #expect(run.perform(.setAccessibility(.zoom, on: true)).result == .done)
        #expect(run.perform(.setAccessibility(.invertColors, on: true)).result == .done)
        let refused = run.perform(.setAccessibility(.assistiveTouch, on: true))
        #expect(refused.result == .refused && refused.message == "While locked to Kiosk, AssistiveTouch cannot be changed.")
        // Apple has no user-enabled option for Mono Audio: never the user's choice while locked.
        #expect(run.perform(.setAccessibility(.monoAudio, on: true)).result == .refused)
        #expect(run.device.accessibilityOn == [.zoom, .invertColors])
        #expect(run.perform(.setAccessibility(.zoom, on: false)).result == .done)
        #expect(run.device.accessibilityOn == [.invertColors])
    }

    @Test func unlockedTheUserChoosesFreely() {
        var run = Run(Fixture.device())
        for feature in AccessibilityFeature.allCases { #expect(run.perform(.setAccessibility(feature, on: true)).result == .done) }
        #expect(run.device.accessibilityOn == AccessibilityFeature.allCases)
    }
}
