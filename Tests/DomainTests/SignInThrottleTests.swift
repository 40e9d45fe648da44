import Domain
import Testing

@Suite struct SignInThrottleTests {
    let throttle = SignInThrottle()

    @Test func firstFourMistakesCostNothing() {
        for failures in 0...4 {
            #expect(throttle.delay(afterFailures: failures) == 0)
        }
    }

    @Test func fifthFailureStartsAThirtySecondWaitThatDoubles() {
        #expect(throttle.delay(afterFailures: 5) == 30)
        #expect(throttle.delay(afterFailures: 6) == 60)
        #expect(throttle.delay(afterFailures: 7) == 120)
    }

    @Test func waitNeverExceedsFifteenMinutes() {
        #expect(throttle.delay(afterFailures: 12) == 900)
        #expect(throttle.delay(afterFailures: 10_000) == 900)
    }

    @Test func remainingWaitCountsDownFromTheLastFailure() {
        #expect(throttle.remainingWait(failures: 5, secondsSinceLastFailure: 10) == 20)
        #expect(throttle.remainingWait(failures: 5, secondsSinceLastFailure: 31) == 0)
    }
}
