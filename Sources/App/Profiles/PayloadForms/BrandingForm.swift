import Domain

/// Branding: on or off, the highlight colour (RGBA numbers and a colour picker kept in sync by
/// a little script), and four logos uploaded as PNG or JPEG.
struct BrandingForm: PayloadForm {
    struct Logo {
        let name: String
        let label: String
        let current: String
        /// Where the current logo is shown from.
        let currentPath: String
        let hasCurrent: Bool
        let size: String
        var error: String?
    }

    static var logoFields: [(name: String, label: String, keyPath: WritableKeyPath<Branding, ImageReference?>)] {
        [("appLogo1x", "App logo (1x)", \.appLogo1x), ("appLogo2x", "App logo (2x)", \.appLogo2x),
         ("splashLogo1x", "Splash logo (1x)", \.splashLogo1x), ("splashLogo2x", "Splash logo (2x)", \.splashLogo2x)]
    }

    var enabled = true
    var red = "", green = "", blue = "", alpha = ""
    var hex = "#ee8b30"
    var logos: [Logo] = []
    /// Where the preview's app logo is shown from.
    var previewLogo: String?
    var errors: [String: String] = [:] {
        didSet {
            for index in logos.indices { logos[index].error = errors[logos[index].name] }
            colorError = ["red", "green", "blue", "alpha"].compactMap { errors["color.\($0)"] }.first
            (redError, greenError, blueError, alphaError) = (errors["color.red"], errors["color.green"], errors["color.blue"], errors["color.alpha"])
        }
    }
    /// Stored, not computed: Mustache reads stored properties only. `colorError` marks the
    /// fieldset; each number's own message sits beside it and is linked to it.
    var colorError: String?
    var redError: String?, greenError: String?, blueError: String?, alphaError: String?

    init(_ payload: Payload?) {
        guard let branding = payload?.settings(as: Branding.self) else {
            self.init(branding: Branding())
            return
        }
        self.init(branding: branding)
    }

    private init(branding: Branding) {
        enabled = branding.enabled
        red = String(branding.primaryColor.red)
        green = String(branding.primaryColor.green)
        blue = String(branding.primaryColor.blue)
        alpha = String(branding.primaryColor.alpha)
        hex = branding.primaryColor.hex
        logos = Self.logoFields.map { field in
            let image = branding[keyPath: field.keyPath]
            return Logo(name: field.name, label: field.label, current: image?.id ?? "", currentPath: image.map { Site.image.link($0.id) } ?? "", hasCurrent: image != nil,
                        size: image.map { "\($0.width) × \($0.height) px, \($0.mediaType == "image/png" ? "PNG" : "JPEG"), \(max(1, $0.byteCount / 1024)) KB" } ?? "",
                        error: nil)
        }
        previewLogo = (branding.appLogo2x ?? branding.appLogo1x).map { Site.image.link($0.id) }
    }

    /// Re-renders what was sent; `images` resolves the logo keys the form carries.
    init(_ form: FormFields, images: [String: ImageReference]) {
        let parsed = Self.parse(form, images: images)
        self.init(branding: parsed.branding)
        red = form["red"]; green = form["green"]; blue = form["blue"]; alpha = form["alpha"]
    }

    init(_ form: FormFields) {
        self.init(form, images: [:])
    }

    private static func parse(_ form: FormFields, images: [String: ImageReference]) -> (branding: Branding, errors: ValidationErrors) {
        var errors = ValidationErrors()
        func component(_ name: String) -> Int {
            guard let value = Int(form[name].trimmingWhitespace()) else {
                errors["color.\(name)"] = "Each colour value is a whole number from 0 to 255."
                return 0
            }
            return value
        }
        var branding = Branding(enabled: form.isChecked("enabled"),
                                primaryColor: RGBAColor(red: component("red"), green: component("green"), blue: component("blue"), alpha: component("alpha")))
        for field in logoFields where !form.isChecked("remove.\(field.name)") {
            let key = form["\(field.name).current"]
            guard !key.isEmpty else { continue }
            if let image = images[key] {
                branding[keyPath: field.keyPath] = image
            } else {
                // An upload whose form stayed open past the daily sweep (`ImageStore.deleteUnreferenced`),
                // or a key never stored: saving without the logo would drop it unseen.
                errors[field.name] = "The image chosen for this logo is no longer stored; choose it again."
            }
        }
        return (branding, errors)
    }

    static func submitted(_ form: FormFields) -> Submission {
        submitted(form, images: [:])
    }

    static func submitted(_ form: FormFields, images: [String: ImageReference]) -> Submission {
        let parsed = parse(form, images: images)
        var errors = parsed.errors
        errors.merge(parsed.branding.validate())
        return Submission(payload: parsed.errors.isEmpty ? Payload(parsed.branding) : nil, errors: errors)
    }
}

/// How pages show Branding payloads; its form is `BrandingForm`.
extension Branding: PayloadPresentation {
    static var formType: any PayloadForm.Type { BrandingForm.self }

    var summaryLines: [String] {
        [enabled ? "Enabled, highlight \(primaryColor.hex)" : "Disabled"]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Enabled", value: PayloadFields.yes(enabled)),
         PayloadFields.Field(label: "Highlight colour", value: primaryColor.hex, swatch: String(primaryColor.hex.prefix(7)))]
            + BrandingForm.logoFields.map { logo in
                let image = self[keyPath: logo.keyPath]
                return PayloadFields.Field(label: logo.label, value: image.map { "\($0.width) × \($0.height) \($0.mediaType)" } ?? "None",
                                           image: image.map { Site.image.link($0.id) })
            }
    }
}
