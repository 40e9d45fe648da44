import Domain
import Foundation
import Testing

/// How a command moves: handed out, reported on, put off, taken back or left to expire — and
/// that a finished command never moves again.
@Suite struct CommandProgressTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// What a refused change says; a refused change leaves the progress exactly as it was.
    func refusal(_ progress: CommandProgress, _ change: (inout CommandProgress) throws -> Void) -> CommandProgress.Refusal? {
        var changed = progress
        do {
            try change(&changed)
            return nil
        } catch {
            #expect(changed == progress, "a refused change changes nothing")
            return error as? CommandProgress.Refusal
        }
    }

    @Test func aCommandIsSentThenReportedAndThenFinished() throws {
        var progress = CommandProgress()
        try progress.handOut(at: start)
        #expect(progress.status == .sent && progress.sentAt == start)
        try progress.report(.acknowledged, at: start + 5)
        #expect(progress.status == .acknowledged && progress.completedAt == start + 5)
        let refused1 = refusal(progress) { try $0.report(.error, at: start + 6) }
        #expect(refused1 == CommandProgress.Refusal.finished(.acknowledged))
        let refused2 = refusal(progress) { try $0.handOut(at: start + 7) }
        #expect(refused2 == CommandProgress.Refusal.finished(.acknowledged))
        let refused3 = refusal(progress) { try $0.cancel(at: start + 8) }
        #expect(refused3 == CommandProgress.Refusal.finished(.acknowledged))
        #expect(progress.status == .acknowledged && progress.completedAt == start + 5, "refusals change nothing")
    }

    @Test func aReportOnACommandNeverSentIsRefused() {
        var progress = CommandProgress()
        let refused4 = refusal(progress) { try $0.report(.acknowledged, at: start) }
        #expect(refused4 == CommandProgress.Refusal.notSent)
        #expect(progress.status == .queued)
    }

    @Test func onlyWhatADeviceReportsIsAReport() throws {
        var progress = CommandProgress()
        try progress.handOut(at: start)
        for status in [CommandStatus.queued, .sent, .cancelled, .expired] {
            let refused5 = refusal(progress) { try $0.report(status, at: start) }
            #expect(refused5 == CommandProgress.Refusal.notAReport(status))
        }
        #expect(Set(CommandStatus.reports) == [.acknowledged, .error, .formatError, .notNow])
        #expect(CommandStatus(report: "CommandFormatError") == .formatError)
        #expect(CommandStatus(report: "Queued") == nil)
    }

    @Test func notNowCountsFromTheFirstTimeAndLeavesTheCommandWaiting() throws {
        var progress = CommandProgress()
        for attempt in 0..<3 {
            try progress.handOut(at: start + Double(attempt * 60))
            try progress.report(.notNow, at: start + Double(attempt * 60 + 1))
        }
        #expect(progress.status == .notNow && progress.status.isWaiting)
        #expect(progress.notNowCount == 3)
        #expect(progress.firstNotNowAt == start + 1)
        #expect(progress.completedAt == nil)
        try progress.handOut(at: start + 500)
        try progress.report(.error, at: start + 501)
        #expect(progress.status == .error && progress.notNowCount == 3 && progress.completedAt == start + 501)
    }

    @Test func anyWaitingCommandCanBeCancelled() throws {
        for prepare in [{ (_: inout CommandProgress) in }, { try $0.handOut(at: self.start) },
                        { try $0.handOut(at: self.start); try $0.report(.notNow, at: self.start) }] as [(inout CommandProgress) throws -> Void] {
            var progress = CommandProgress()
            try prepare(&progress)
            try progress.cancel(at: start + 10)
            #expect(progress.status == .cancelled && progress.completedAt == start + 10)
            let refused6 = refusal(progress) { try $0.report(.acknowledged, at: start + 11) }
            #expect(refused6 == CommandProgress.Refusal.finished(.cancelled))
        }
    }

    @Test func aWaitingCommandExpiresOnlyAfterItsLifetime() throws {
        var progress = CommandProgress()
        let atTheEnd = progress.expireIfDue(queuedAt: start, at: start + DeviceCommand.lifetime)
        #expect(!atTheEnd && progress.status == .queued)
        let past = progress.expireIfDue(queuedAt: start, at: start + DeviceCommand.lifetime + 1)
        #expect(past)
        #expect(progress.status == .expired)
        var finished = CommandProgress()
        try finished.handOut(at: start)
        try finished.report(.acknowledged, at: start)
        let finishedExpired = finished.expireIfDue(queuedAt: start, at: start + DeviceCommand.lifetime * 2)
        #expect(!finishedExpired)
        #expect(finished.status == .acknowledged)
    }

    /// The stores' partial index and every query for waiting commands name these three.
    @Test func waitingMeansQueuedSentOrPutOff() {
        #expect(CommandStatus.waiting == [.queued, .sent, .notNow])
        #expect(CommandStatus.allCases.filter(\.isWaiting) == CommandStatus.waiting)
    }
}
