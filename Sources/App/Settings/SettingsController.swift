import Domain
import Foundation
import Hummingbird

/// Console-wide settings (admin): the organisation exported profiles name, whether the demo's
/// stories show, each app's share of the log store and how long lines are
/// kept, beside what the log store holds now — every app's usage against its cap, and what
/// retention and the cap did lately — and a button to run retention now.
struct SettingsController {
    let settings: SettingsStore
    let now: @Sendable () -> Date
    let renderer: PageRenderer
    let cookies: CookieJar
    let logRetention: LogRetention

    struct UsageRow {
        let appName: String
        let bundleID: String
        let used: String
        let lines: String
        let percent: Int
        let warning: Bool
        let full: Bool
    }

    struct EventRow {
        let time: String
        let isoTime: String
        let message: String
    }

    struct View {
        let logCapMegabytes: String
        let logRetentionDays: String
        let organisationName: String
        let showsDemoStories: Bool
        let checkInIntervalMinutes: String
        let errors: [String: String]
        let usage: [UsageRow]
        let events: [EventRow]
        let retentionDays: Int
        // Stored, not computed: templates read models by reflection.
        let hasUsage: Bool
        let hasEvents: Bool
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Settings.page) { request, context in
            try await page(nil, request: request, context: context)
        }
        routes.on(Site.Settings.save, use: save)
        routes.on(Site.Settings.purgeNow, use: purgeNow)
    }

    private func page(_ submitted: SettingsForm?, request: Request, context: SignedInContext) async throws -> Response {
        let overview = try await self.settings.overview()
        let form = submitted ?? SettingsForm(overview.settings)
        let names = overview.apps.namesByBundleID
        let cap = overview.settings.logCapBytes
        let now = self.now()
        let view = View(
            logCapMegabytes: form.logCapMegabytes, logRetentionDays: form.logRetentionDays,
            organisationName: form.organisationName, showsDemoStories: form.showsDemoStories,
            checkInIntervalMinutes: form.checkInIntervalMinutes, errors: form.errors.messages,
            usage: overview.usage.map { usage in
                let warning = LogCapWarning(app: usage.app, usedBytes: usage.byteCount, capBytes: cap)
                return UsageRow(appName: names[usage.app] ?? usage.app, bundleID: usage.app, used: ByteCountText.megabytes(usage.byteCount),
                                lines: usage.lineCount.formatted(), percent: warning.percent,
                                warning: Double(usage.byteCount) >= Double(cap) * LogCapWarning.threshold, full: warning.isFull)
            },
            events: overview.events.map { EventRow(time: DisplayTime.relative($0.at, now: now), isoTime: DisplayTime.iso($0.at), message: $0.message) },
            retentionDays: overview.settings.logRetentionDays, hasUsage: !overview.usage.isEmpty, hasEvents: !overview.events.isEmpty)
        return try renderer.page("settings/index", title: "Settings", model: view, request: request, context: context,
                                          status: form.errors.isEmpty ? .ok : .unprocessableContent)
    }

    @Sendable func save(request: Request, context: SignedInContext) async throws -> Response {
        var form = SettingsForm(context.form)
        guard let settings = form.validated() else { return try await page(form, request: request, context: context) }
        try await self.settings.save(settings, by: Actor(context.user))
        return .seeOther(Site.Settings.page.link(), flash: .notice("Saved the settings."), cookies: cookies, request: request)
    }

    @Sendable func purgeNow(request: Request, context: SignedInContext) async throws -> Response {
        let (purged, days) = try await logRetention.purge(by: Actor(context.user))
        return .seeOther(Site.Settings.page.link(), flash: .notice(LogRetention.describe(purged, days: days)), cookies: cookies, request: request)
    }
}
