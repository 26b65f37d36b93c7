//! The macro the table of settings keys (`keys.rs`) is written with: from one row per
//! key it makes everything a key needs, so a new key is one row.
//!
//! A row:
//!
//! ```text
//! /// The key's comment in the sample config (none: it goes with the row above).
//! Variant field: Type = default, sample "written default", read READER
//!     [, serde "serialize_with function"] [, flag "--flag" field: Type = to_raw];
//! ```
//!
//! and it makes:
//! - `Settings`: the field, its default (`Default`) and how `config show` writes it;
//! - `SettingsLayer`: the field as an `Option`, its validated setter (`set`, by the
//!   READER, a `read::Reader`) and its place in the merge (`apply_to`);
//! - `SettingKey`: the variant, its name in a file and what a value must look like;
//! - `Overrides`: the command-line flag's field, if the key has a flag, and how its
//!   value is read as if written in a file (`to_raw`);
//! - the key's lines in the sample config (`SAMPLE_CONFIG`): its comment and the key at
//!   its default, between the sample's head and tail.

macro_rules! settings_table {
    (
        sample: $head:expr, $tail:expr;
        $(
            $(#[doc = $first:literal] $(#[doc = $rest:literal])*)?
            $variant:ident $field:ident: $ty:ty = $default:expr,
                sample $sample:literal, read $reader:expr
                $(, serde $serialize:literal)?
                $(, flag $flag:literal $flag_field:ident: $flag_ty:ty = $to_raw:path)?;
        )+
    ) => {
        /// The effective settings: every key has a value.
        ///
        /// The field order is the order `config show` prints them in.
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
        pub struct Settings {
            $(
                $(#[doc = $first] $(#[doc = $rest])*)?
                $(#[serde(serialize_with = $serialize)])?
                pub $field: $ty,
            )+
        }

        impl Default for Settings {
            /// A good first run: you play Red at the bottom against alpha-beta answering
            /// in about a second, with a one-line-per-iteration search log.
            fn default() -> Self {
                Settings {
                    $( $field: $default, )+
                }
            }
        }

        /// Settings given by one source (the file's top level, a profile, the flags).
        /// `None` leaves the value of the layer below; for the limits `Some(None)` is an
        /// explicit "no limit".
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct SettingsLayer {
            $( pub $field: Option<$ty>, )+
        }

        impl SettingsLayer {
            /// Validate `value` for `key` and store it. `shown_key` is the key as the
            /// user wrote it (`profiles.study.depth`), for the message; `themes` are the
            /// theme names that exist.
            pub fn set(
                &mut self,
                key: SettingKey,
                shown_key: &str,
                value: RawValue<'_>,
                themes: &[String],
            ) -> Result<(), ConfigProblem> {
                let wrong_type = || ConfigProblem::WrongType {
                    key: shown_key.to_owned(),
                    expected: key.expectation(),
                    found: value.describe(),
                };
                let at = Reading {
                    key: shown_key,
                    themes,
                    wrong_type: &wrong_type,
                };
                match key {
                    $( SettingKey::$variant => self.$field = Some($reader.read(value, &at)?), )+
                }
                Ok(())
            }

            /// Overwrite the fields this layer sets.
            pub fn apply_to(&self, settings: &mut Settings) {
                $(
                    if let Some(value) = &self.$field {
                        settings.$field = value.clone();
                    }
                )+
            }
        }

        /// The keys a settings table (top level or `[profiles.NAME]`) may hold.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum SettingKey {
            $( $variant, )+
        }

        impl SettingKey {
            pub const ALL: &'static [SettingKey] = &[ $( SettingKey::$variant, )+ ];

            /// The key as written in a config file.
            pub const fn name(self) -> &'static str {
                match self {
                    $( SettingKey::$variant => stringify!($field), )+
                }
            }

            pub fn from_name(name: &str) -> Option<SettingKey> {
                SettingKey::ALL.iter().copied().find(|key| key.name() == name)
            }

            /// What a value of this key must look like, for error messages.
            pub fn expectation(self) -> String {
                match self {
                    $( SettingKey::$variant => expectation::<$ty>(&$reader), )+
                }
            }
        }

        /// The settings flags as the user typed them; `to_layer` validates them.
        /// Each field names the flag it comes from.
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct Overrides {
            /// `--profile`.
            pub profile: Option<String>,
            $( $(
                #[doc = concat!("`", $flag, "`.")]
                pub $flag_field: $flag_ty,
            )? )+
        }

        impl Overrides {
            /// The flags given, in the table's order: the key each sets, the flag's
            /// name and its value as a file would hold it.
            pub(super) fn given(&self) -> Vec<(SettingKey, &'static str, RawValue<'_>)> {
                let mut given = Vec::new();
                $( $(
                    if let Some(value) = $to_raw(&self.$flag_field) {
                        given.push((SettingKey::$variant, $flag, value));
                    }
                )? )+
                given
            }
        }

        /// The commented file `config init` writes: every key at its default, three
        /// profiles.
        pub const SAMPLE_CONFIG: &str = concat!(
            $head,
            $(
                $( "\n#", $first, "\n", $( "#", $rest, "\n", )* )?
                stringify!($field), " = ", $sample, "\n",
            )+
            "\n",
            $tail
        );
    };
}

pub(super) use settings_table;
