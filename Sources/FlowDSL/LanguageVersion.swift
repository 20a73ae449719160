/// The versions of the workflow language this build understands (the `version:` key).
public enum LanguageVersion {
    /// Every `version:` value a workflow file may declare.
    public static let supported: [Int] = [1]
}
