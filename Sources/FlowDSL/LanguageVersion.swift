/// The versions of the workflow language this build understands (the `version:` key).
package enum LanguageVersion {
    /// Every `version:` value a workflow file may declare.
    package static let supported: [Int] = [1]
}
