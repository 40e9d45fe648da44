import Domain
import Foundation
import Hummingbird

/// The page that asks before a change reaches devices: the question, what the change does to
/// them (`ImpactView`), and the form that makes it — the change's own fields sent again.
struct ImpactPage {
    struct Hidden {
        let name: String
        let value: String
    }

    let question: String
    let impact: ImpactView
    let confirmPath: String
    let confirmLabel: String
    let hidden: [Hidden]
    let profilePath: String
    let profileName: String

    static func render(_ preview: ImpactPreview.Result, question: String, confirmPath: String, confirmLabel: String, hidden: [Hidden],
                       renderer: PageRenderer, request: Request, context: SignedInContext) throws -> Response {
        let profilePath = Site.Profiles.show.link(preview.profile.id)
        let page = ImpactPage(question: question, impact: ImpactView(preview.impact, appNames: preview.appNames), confirmPath: confirmPath,
                              confirmLabel: confirmLabel, hidden: hidden, profilePath: profilePath,
                              profileName: preview.profile.name)
        return try renderer.page("profiles/impact", title: question, model: page, request: request, context: context)
    }
}
