export { loadSettings, SettingsError, projectRoot, type Settings, type DeepPartial } from './settings.js';
