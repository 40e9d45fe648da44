@testable import App
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import Storage
import Testing

/// `/readyz` tells a load balancer whether to send this console work; `/healthz` only whether
/// the process is alive.
@Suite struct ReadinessTests {
    @Test func readyzAnswersReadyWhileTheDatabaseAnswersAndSaysNothingAboutIt() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .ok)
            #expect(ready.headers[.cacheControl] == "no-store")
            let body = String(buffer: ready.body)
            #expect(body == #"{"status":"ready"}"#)
            #expect(!body.contains(console.services.config.databasePath))
        }
    }

    @Test func onceShuttingDownReadyzAnswers503WhileHealthzStaysAlive() async throws {
        let console = try await TestConsole.make()
        console.services.readiness.beginShuttingDown()
        try await console.test { client in
            let draining = try await client.execute(uri: "/readyz", method: .get)
            #expect(draining.status == .serviceUnavailable)
            #expect(String(buffer: draining.body) == #"{"status":"shutting_down"}"#)
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            // Requests still in flight, or arriving during the drain delay, are served as before.
            #expect(try await client.execute(uri: "/sign-in", method: .get).status == .ok)
        }
    }

    @Test func aDatabaseNobodyAnswersForMakesReadyzAnswer503() async throws {
        let readiness = Readiness(probe: DatabaseProbe(try DatabaseLocation("postgres://console:secret@127.0.0.1:1/fleet")),
                                  logger: Logger(label: "test"))
        #expect(await readiness.check() == .databaseUnreachable)
    }

    /// SIGTERM reaches the drain first: readiness turns at once, and the server is told to stop
    /// only after the delay.
    @Test func theDrainTurnsReadinessAtTheSignalAndHoldsTheShutdownForItsDelay() async throws {
        let readiness = Readiness(probe: DatabaseProbe(.sqlite(path: ":memory:")), logger: Logger(label: "test"))
        let delay = Duration.milliseconds(400)
        let group = ServiceGroup(configuration: .init(services: [DrainOnShutdown(readiness: readiness, delay: delay, logger: Logger(label: "test"))],
                                                      logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!readiness.isShuttingDown)
        let signalled = ContinuousClock.now
        await group.triggerGracefulShutdown()
        // A moment for the service to hear it (longer when the machine is busy).
        for _ in 0..<100 where !readiness.isShuttingDown { try await Task.sleep(for: .milliseconds(20)) }
        #expect(readiness.isShuttingDown)
        #expect(await readiness.check() == .shuttingDown)
        try await running.value
        #expect(ContinuousClock.now - signalled >= delay)
    }
}
