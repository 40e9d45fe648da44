import Domain

/// The four stories a `--demo` start tells, told by the dashboard's tiles and walked step by
/// step on `/tour`. Each names the demo's own groups, devices, apps and profiles (`DemoData`),
/// found by name when a page is drawn, so a story whose device someone removed still reads,
/// without its link.
///
/// A simulator step carries the actions it asks the reader to do and the rule the simulator's
/// timeline then names: `DemoStoryTests` performs them on a fresh demo console and checks that
/// rule, so the tour never promises what the simulator does not show.
struct DemoStory: Sendable {
    let id: String
    let title: String
    /// What it shows, in one sentence, for the dashboard tile.
    let summary: String
    /// The payloads it is about, as the tile lists them.
    let payloads: [PayloadKind]
    /// The group whose devices it uses.
    let group: String
    /// The devices its "Open simulator" buttons open.
    let simulatorDevices: [String]
    /// What the simulator's copy and log boxes hold on its devices, in the story's words.
    let copyText: String
    let logMessage: String
    let steps: [Step]

    struct Step: Sendable {
        /// Unique across stories: the tour's progress is kept by it.
        let id: String
        let instruction: String
        /// What the page will show, and the rule that decides it.
        let expectation: String
        let target: Target
        /// What the instruction makes the simulator do, in order.
        var actions: [SimulatorAction] = []
        /// The rule the timeline names after the last action.
        var rule: String?
    }

    /// Where a step's link goes.
    enum Target: Sendable {
        case simulator(device: String)
        case device(String)
        case profileHistory(identifier: String)
        case crashGroups(app: String)
        case logs(app: String, search: String)
        case feedback(device: String, app: String)

        /// Who can follow the step: viewers read devices and profiles; acting in the
        /// simulator and reading logs and feedback is helpdesk's.
        var role: Role {
            switch self {
            case .device, .profileHistory: .viewer
            case .simulator, .crashGroups, .logs, .feedback: .helpdesk
            }
        }
    }
}

extension DemoStory {
    static let all: [DemoStory] = [lobbyKiosk, clinic, examHall, fieldSales]

    static func step(_ id: String) -> (story: DemoStory, step: Step)? {
        for story in all { if let step = story.steps.first(where: { $0.id == id }) { return (story, step) } }
        return nil
    }

    static let lobbyKiosk = DemoStory(
        id: "kiosk", title: "Lobby kiosk",
        summary: "Six lobby iPads stay in the check-in app all day with Single App Mode; a crash or restart cannot get a visitor out.",
        payloads: [.singleAppMode, .logging], group: "Lobby kiosks", simulatorDevices: ["Lobby kiosk 01", "Lobby kiosk 02"],
        copyText: "Visitor: Dana Reyes, host: Facilities", logMessage: "Badge printer paper low",
        steps: [
            Step(id: "kiosk-open", instruction: "Open the simulator for Lobby kiosk 01.",
                 expectation: "Lobby Check-In fills the screen and the status bar says “Locked: Single App Mode”. The timeline's first line is the device applying its effective policy: the Single App Mode payload of “Lobby kiosk lockdown”, assigned to Lobby kiosks.",
                 target: .simulator(device: "Lobby kiosk 01"), rule: "The device applies its effective policy"),
            Step(id: "kiosk-home", instruction: "Press Home, as a visitor would.",
                 expectation: "Nothing happens: the timeline says Single App Mode ignores the Home button.",
                 target: .simulator(device: "Lobby kiosk 01"), actions: [.home], rule: "Single App Mode ignores the Home button"),
            Step(id: "kiosk-restart", instruction: "Press Restart.",
                 expectation: "The iPad comes back in Lobby Check-In: a restart ends every lock except Single App Mode.",
                 target: .simulator(device: "Lobby kiosk 01"), actions: [.restart], rule: "A restart ends every lock except Single App Mode"),
            Step(id: "kiosk-crash", instruction: "Press Crash under “In Lobby Check-In”.",
                 expectation: "The app opens again at once — Single App Mode relaunches a crashing app — and its crash log goes to the console.",
                 target: .simulator(device: "Lobby kiosk 01"), actions: [.crash(app: "com.example.checkin")],
                 rule: "Single App Mode relaunches a crashing app"),
            Step(id: "kiosk-crashes", instruction: "Open Lobby Check-In's crash groups.",
                 expectation: "Beside the crash you just caused, “Exception Type: EXC_BAD_ACCESS (SIGSEGV) in BadgePrinter.flush()” has crashed four kiosks, and only in version 2.4.0: the badge-printer crash started with that release.",
                 target: .crashGroups(app: "com.example.checkin")),
            Step(id: "kiosk-history", instruction: "Open the lockdown profile's history.",
                 expectation: "How the lock grew, one version at a time: the lock itself, then Zoom and VoiceOver for visitors, then no auto-lock and no ringer switch — each change with its note and diff.",
                 target: .profileHistory(identifier: "com.example.profiles.lobby-kiosk")),
        ])

    static let clinic = DemoStory(
        id: "clinic", title: "Clinic",
        summary: "Ward iPads hand over to patients in Clinic Notes' own lock (ASAM), and patient data cannot be pasted into a chat app (DLP).",
        payloads: [.asamAllowlist, .dlp, .authentication, .managedAppConfig], group: "Clinic iPads",
        simulatorDevices: ["Clinic iPad 01"], copyText: "J. Smith, bed 4, allergic to penicillin", logMessage: "Patient hand-over started",
        steps: [
            Step(id: "clinic-open", instruction: "Open the simulator for Clinic iPad 01 and open Clinic Notes.",
                 expectation: "Clinic Notes asks for a sign-in: the clinic's authentication payload asks for a passcode.",
                 target: .simulator(device: "Clinic iPad 01"), actions: [.launchApp("com.example.clinicnotes")],
                 rule: "Apps open from the home screen"),
            Step(id: "clinic-sign-in", instruction: "Press Sign in.",
                 expectation: "Clinic Notes opens with its managed configuration (server, ward, auto-logout); with single sign-on the other work apps share the session.",
                 target: .simulator(device: "Clinic iPad 01"), actions: [.signIn(app: "com.example.clinicnotes")],
                 rule: "Single sign-on shares the session across the organisation's apps"),
            Step(id: "clinic-hand-over", instruction: "Press “Request lock (ASAM)” and answer Yes, as the nurse hands the iPad to a patient.",
                 expectation: "The iPad locks to Clinic Notes: ASAM needs a supervised iPad, the app on the allowlist (“Clinic data protection”) and the user's Yes.",
                 target: .simulator(device: "Clinic iPad 01"), actions: [.requestLock(app: "com.example.clinicnotes", mode: .autonomous, confirm: true)],
                 rule: "ASAM: supervised, allowlisted and confirmed"),
            Step(id: "clinic-home", instruction: "Press Home, as a curious patient would.",
                 expectation: "Ignored while Autonomous Single App Mode holds the iPad.",
                 target: .simulator(device: "Clinic iPad 01"), actions: [.home], rule: "Autonomous Single App Mode ignores the Home button"),
            Step(id: "clinic-hand-back", instruction: "Press “Request unlock”: the patient is done and the app releases the iPad.",
                 expectation: "Unlocked: the app that locked is the one that unlocks.",
                 target: .simulator(device: "Clinic iPad 01"), actions: [.requestUnlock(app: "com.example.clinicnotes")],
                 rule: "The app releases its own Autonomous Single App Mode"),
            Step(id: "clinic-copy", instruction: "Press Copy: “Text to copy” holds a patient's details.",
                 expectation: "Copied — but marked as managed data: the DLP payload says copy and paste out: No.",
                 target: .simulator(device: "Clinic iPad 01"), actions: [.copy(app: "com.example.clinicnotes", text: "J. Smith, bed 4")],
                 rule: "Copy and paste out: No"),
            Step(id: "clinic-paste", instruction: "Press Home, open Social Chat and press “Paste here”.",
                 expectation: "Blocked: patient data does not leave the managed apps.",
                 target: .simulator(device: "Clinic iPad 01"), actions: [.home, .launchApp("com.social.chat"), .paste(app: "com.social.chat")],
                 rule: "Copy and paste out: No"),
            Step(id: "clinic-chat-lock", instruction: "Still in Social Chat, press “Request lock (ASAM)” and answer Yes.",
                 expectation: "Refused: only apps on the ASAM allowlist may lock the iPad.",
                 target: .simulator(device: "Clinic iPad 01"), actions: [.requestLock(app: "com.social.chat", mode: .autonomous, confirm: true)],
                 rule: "ASAM needs the app on the MDM allowlist"),
        ])

    static let examHall = DemoStory(
        id: "exam", title: "Exam hall",
        summary: "School iPads lock into the exam with ASAM; a student's own, unsupervised iPad cannot, but the exam app's assessment mode (AAC) still locks it.",
        payloads: [.asamAllowlist], group: "Exam iPads", simulatorDevices: ["Exam iPad 01", "Student iPad (own)"],
        copyText: "Question 3: the answer is 42", logMessage: "Exam paper opened",
        steps: [
            Step(id: "exam-school", instruction: "Open the simulator for Exam iPad 01, open Exam Browser, press “Request lock (ASAM)” and answer Yes.",
                 expectation: "Locked for the exam: the school's iPad is supervised and “Exam apps” allowlists Exam Browser.",
                 target: .simulator(device: "Exam iPad 01"),
                 actions: [.launchApp("com.example.exam"), .requestLock(app: "com.example.exam", mode: .autonomous, confirm: true)],
                 rule: "ASAM: supervised, allowlisted and confirmed"),
            Step(id: "exam-own-asam", instruction: "Open the simulator for Student iPad (own), open Exam Browser and request the same lock (ASAM).",
                 expectation: "Refused: the student's own iPad is not supervised, and ASAM needs supervision.",
                 target: .simulator(device: "Student iPad (own)"),
                 actions: [.launchApp("com.example.exam"), .requestLock(app: "com.example.exam", mode: .autonomous, confirm: true)],
                 rule: "ASAM needs a supervised device"),
            Step(id: "exam-own-aac", instruction: "Press “Request lock (AAC)” and answer Yes.",
                 expectation: "Locked: assessment mode needs no supervision, only the app's entitlement. The app screen lists what the assessment turns off — auto-correct, dictation, Siri and the rest.",
                 target: .simulator(device: "Student iPad (own)"),
                 actions: [.requestLock(app: "com.example.exam", mode: .assessment, confirm: true)], rule: "AAC: entitled and confirmed"),
            Step(id: "exam-eight-hours", instruction: "Advance the clock by 480 minutes.",
                 expectation: "The assessment ends itself after 8 hours and the iPad unlocks.",
                 target: .simulator(device: "Student iPad (own)"), actions: [.advanceClock(minutes: 480)],
                 rule: "An assessment ends itself after 8 hours"),
            Step(id: "exam-quiz", instruction: "Press Home, open Quiz Time and press “Request lock (AAC)”, answering Yes.",
                 expectation: "Refused: Quiz Time was not built with the assessment entitlement.",
                 target: .simulator(device: "Student iPad (own)"),
                 actions: [.home, .launchApp("com.example.quiz"), .requestLock(app: "com.example.quiz", mode: .assessment, confirm: true)],
                 rule: "AAC needs the com.apple.developer.edu-assessment-mode entitlement"),
        ])

    static let fieldSales = DemoStory(
        id: "field-sales", title: "Field sales",
        summary: "Sales iPhones open the sales app only at head office and the depots, in the company's colours, and send their warnings to helpdesk.",
        payloads: [.geofence, .branding, .logging, .authentication], group: "Field sales", simulatorDevices: ["Sales iPhone 01", "Sales iPhone 03"],
        copyText: "Order 1042: 12 boxes for Harbour Café", logMessage: "Order sync retried on cellular",
        steps: [
            Step(id: "sales-office", instruction: "Open the simulator for Sales iPhone 01, choose the location “Head office (inside)”, press Go, then open Field Sales.",
                 expectation: "The sign-in shows in the company's orange: the branding payload colours the SDK's screens, and head office is inside a geofence area.",
                 target: .simulator(device: "Sales iPhone 01"),
                 actions: [.setLocation(DemoData.salesAreas[0].centre), .launchApp("com.example.fieldsales")],
                 rule: "Apps open from the home screen"),
            Step(id: "sales-outside", instruction: "Choose the location “Outside every area” and press Go.",
                 expectation: "Field Sales is blocked: SDK apps open only inside a geofence area.",
                 target: .simulator(device: "Sales iPhone 01"), actions: [.setLocation(Geofence(areas: DemoData.salesAreas).pointOutside()!)],
                 rule: "SDK apps open only inside a geofence area"),
            Step(id: "sales-complaint", instruction: "Search Field Sales' logs for “geofence”.",
                 expectation: "Sales iPhone 03 warns every afternoon that it is outside every area at the North depot car park — the complaint helpdesk had.",
                 target: .logs(app: "com.example.fieldsales", search: "geofence")),
            Step(id: "sales-note", instruction: "Open Sales iPhone 03.",
                 expectation: "Helpdesk's note says why: the depot's 1.5 km circle stops short of the new car park.",
                 target: .device("Sales iPhone 03")),
            Step(id: "sales-feedback", instruction: "Open Field Sales' feedback history on Sales iPhone 03.",
                 expectation: "The app's own counters over two weeks: orders synced climb, and sync failures rise in the afternoons the rep spends at the depot.",
                 target: .feedback(device: "Sales iPhone 03", app: "com.example.fieldsales")),
        ])
}
