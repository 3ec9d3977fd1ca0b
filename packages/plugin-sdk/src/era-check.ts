/**
 * GitHub Copilot's first public preview: no coding assistant wrote commits before this day, so a
 * history's commits from before it measure the false-alarm floor (`era_check`).
 * @since 1.12
 */
export const ERA_CHECK_BEFORE = '2021-06-29';
/**
 * Fewer commits from before ERA_CHECK_BEFORE than this make no floor (`era_check: null`): one flag
 * among five would read as 20%.
 * @since 1.12
 */
export const ERA_CHECK_MIN_COMMITS = 20;
