// Generated from Questline's OpenAPI document (GET /docs/json) by openapi-typescript: do not edit.
// Regenerate after changing a route: npm run client:generate (at the repository root).
// test/client/schema-drift.test.ts fails while this file differs from what the routes declare.

export interface paths {
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: "ok" | "unavailable";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The node can serve requests (database reachable) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: "ok" | "unavailable";
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: "ok" | "unavailable";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Get a bearer token (client credentials; add xoauth_end_user_id for a user-level token) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /** @enum {string} */
                        grant_type: "client_credentials";
                        /** @description Or the user name of HTTP Basic credentials (RFC 6749 §2.3.1), then not in the body */
                        client_id: string;
                        /** @description Or the password of HTTP Basic credentials, then not in the body */
                        client_secret: string;
                        /** @description Issue a user-level token for this end user */
                        xoauth_end_user_id?: string;
                    };
                    "application/json": {
                        /** @enum {string} */
                        grant_type: "client_credentials";
                        /** @description Or the user name of HTTP Basic credentials (RFC 6749 §2.3.1), then not in the body */
                        client_id: string;
                        /** @description Or the password of HTTP Basic credentials, then not in the body */
                        client_secret: string;
                        /** @description Issue a user-level token for this end user */
                        xoauth_end_user_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            /** @description Seconds until the token expires */
                            expires_in: number;
                        };
                    };
                };
                /** @description Default Response */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description RFC 6749 §5.2 error code */
                            error: string;
                            error_description: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/challenges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Mission definitions (timezone at the root; repeatableWindow without one) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredStartDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredEndDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default not_hidden */
                                hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                /** @default {} */
                                prerequisites: {
                                    /** @default [] */
                                    groups: string[];
                                    /** @default [] */
                                    missions: string[];
                                    /** @description A level id: only users who have reached it see and advance the mission */
                                    minLevel?: string;
                                    /** @description Members of any of these groups do not see or advance the mission */
                                    excludedGroups?: string[];
                                };
                                /** @default user */
                                party: "user" | "group";
                                /** @default all */
                                ruleMatch: "all" | "any";
                                rules: {
                                    id: string;
                                    /** @description An action name (case-insensitive) */
                                    action: string;
                                    /** @default count */
                                    type: "count" | "sum";
                                    goal: number;
                                    /** @default [] */
                                    metadata: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                                /** @default {} */
                                rewards: {
                                    /** @default [] */
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                repeatableWindow?: {
                                    period: "none" | "day" | "week" | "month";
                                    maxPerPeriod?: number;
                                };
                                /** @default 0 */
                                importance: number;
                                /** @description At most this many completions site-wide */
                                supply?: number;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Action definitions */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Unique, case-insensitive */
                                name: string;
                                description?: string;
                                rateLimit?: {
                                    max: number;
                                    period: "minute" | "hour" | "day" | "week";
                                };
                                /** @default false */
                                suppressRepeats: boolean;
                                /** @default false */
                                clientLoggable: boolean;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/program": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The whole program */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                site: {
                                    name: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default points */
                                    levelType: "points" | "custom";
                                    achievementCallbackUrl?: string;
                                    giftNotifyUrl?: string;
                                    itemPurchaseNotifyUrl?: string;
                                    /** @description Write-only: reads show only its last 4 characters */
                                    webhookSecret?: string;
                                    /** @default [] */
                                    allowedOrigins: string[];
                                    userlinkUrl?: string;
                                    whitelistDisabled?: boolean;
                                    authenticationDisabled?: boolean;
                                    userFilterPrefix?: string;
                                    catalogBuyBackPercent?: number;
                                    ownedItemFeedDescription?: string;
                                    giftItemFeedDescription?: string;
                                    subdomain?: string;
                                    enforceSubdomain?: boolean;
                                    version?: string;
                                };
                                pointCategories: {
                                    /** @description The category name, also its id */
                                    name: string;
                                    /** @default false */
                                    isDefault: boolean;
                                    /** @description Most a user earns per calendar day (site time zone) */
                                    dailyLimit?: number;
                                    /** @description Most a user earns per calendar year (site time zone) */
                                    yearlyLimit?: number;
                                    /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                    expiry?: {
                                        /** @description Points expire this many days after they were earned */
                                        afterDays?: number;
                                        /** @description Points earned before this local date-time (site time zone) expire at it */
                                        date?: string;
                                    };
                                }[];
                                /** @default [] */
                                actions: {
                                    /** @description Unique, case-insensitive */
                                    name: string;
                                    description?: string;
                                    rateLimit?: {
                                        max: number;
                                        period: "minute" | "hour" | "day" | "week";
                                    };
                                    /** @default false */
                                    suppressRepeats: boolean;
                                    /** @default false */
                                    clientLoggable: boolean;
                                }[];
                                /** @default [] */
                                badges: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                }[];
                                /** @default [] */
                                levels: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    threshold: number;
                                }[];
                                /** @default [] */
                                groups: {
                                    id: string;
                                    name: string;
                                    type?: string;
                                }[];
                                /** @default [] */
                                missions: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    featuredStartDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    featuredEndDate?: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default not_hidden */
                                    hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                    /** @default {} */
                                    prerequisites: {
                                        /** @default [] */
                                        groups: string[];
                                        /** @default [] */
                                        missions: string[];
                                        /** @description A level id: only users who have reached it see and advance the mission */
                                        minLevel?: string;
                                        /** @description Members of any of these groups do not see or advance the mission */
                                        excludedGroups?: string[];
                                    };
                                    /** @default user */
                                    party: "user" | "group";
                                    /** @default all */
                                    ruleMatch: "all" | "any";
                                    rules: {
                                        id: string;
                                        /** @description An action name (case-insensitive) */
                                        action: string;
                                        /** @default count */
                                        type: "count" | "sum";
                                        goal: number;
                                        /** @default [] */
                                        metadata: {
                                            name: string;
                                            value: string;
                                        }[];
                                    }[];
                                    /** @default {} */
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        multiplier?: number;
                                        badge?: string;
                                    };
                                    repeatableWindow?: {
                                        period: "none" | "day" | "week" | "month";
                                        maxPerPeriod?: number;
                                    };
                                    /** @default 0 */
                                    importance: number;
                                    /** @description At most this many completions site-wide */
                                    supply?: number;
                                }[];
                                /** @default [] */
                                leaderboards: {
                                    id: string;
                                    name: string;
                                    metric: {
                                        type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                        category?: string;
                                        action?: string;
                                    };
                                    /** @default allTime */
                                    period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                    /** @default user */
                                    party: "user" | "group";
                                    groupFilter?: string;
                                    /** @default 100 */
                                    size: number;
                                    /** @default false */
                                    primary: boolean;
                                    /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                    end?: string;
                                    /** @description Paid once to the final standings of each window that closes */
                                    prizes?: {
                                        /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                        ranks: string;
                                        rewards: {
                                            /** @default [] */
                                            points: {
                                                category: string;
                                                amount: number;
                                            }[];
                                            badge?: string;
                                        };
                                    }[];
                                }[];
                                /** @default [] */
                                layouts: {
                                    uuid: string;
                                    name: string;
                                    /** @default [] */
                                    leaderboards: string[];
                                }[];
                                /** @default [] */
                                quizzes: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default 100 */
                                    passingPercent: number;
                                    maxAttempts?: number;
                                    questions: {
                                        id: string;
                                        text: string;
                                        /** @default single */
                                        type: "single" | "multiple";
                                        choices: {
                                            id: string;
                                            text: string;
                                            /** @default false */
                                            correct: boolean;
                                        }[];
                                    }[];
                                }[];
                                /** @default [] */
                                exchanges: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                    timezone?: string;
                                    /**
                                     * @description Empty: everyone
                                     * @default {}
                                     */
                                    givers: {
                                        /** @default [] */
                                        groups: string[];
                                    };
                                    /**
                                     * @description Empty: everyone
                                     * @default {}
                                     */
                                    recipients: {
                                        /** @default [] */
                                        groups: string[];
                                    };
                                    pointCategory: string;
                                    budget: {
                                        amount: number;
                                        period: "none" | "month" | "quarter" | "year";
                                    };
                                    /** @default 1 */
                                    minPoints: number;
                                    maxPoints?: number;
                                    /** @default 10 */
                                    maxRecipients: number;
                                    /** @default [] */
                                    categories: {
                                        id: string;
                                        name: string;
                                        iconUrl?: string;
                                    }[];
                                }[];
                                streaks?: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                    action?: string;
                                    /** @description A period counts when the user completes this mission in it */
                                    mission?: string;
                                    /**
                                     * @description Calendar days or weeks (starting Sunday) in the site time zone
                                     * @default day
                                     */
                                    period: "day" | "week";
                                    /**
                                     * @description A missed period uses a freeze instead of breaking the streak
                                     * @default {}
                                     */
                                    freezes: {
                                        /**
                                         * @description Most freezes a user holds
                                         * @default 0
                                         */
                                        max: number;
                                        /**
                                         * @description Freezes a user starts with
                                         * @default 0
                                         */
                                        initial: number;
                                        /** @description One freeze is earned every this many periods in a run */
                                        earnEvery?: number;
                                    };
                                    /**
                                     * @description Paid once per run when the streak reaches the length
                                     * @default []
                                     */
                                    milestones: {
                                        length: number;
                                        rewards: {
                                            /** @default [] */
                                            points: {
                                                category: string;
                                                amount: number;
                                            }[];
                                            badge?: string;
                                        };
                                    }[];
                                }[];
                                boosts?: {
                                    id: string;
                                    name?: string;
                                    /** @description Point rewards in the window are multiplied by this (rounded down) */
                                    multiplier: number;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    start: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    end: string;
                                    /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                    timezone?: string;
                                    /**
                                     * @description Only rewards of missions advanced by these actions; empty: any
                                     * @default []
                                     */
                                    actions: string[];
                                    /**
                                     * @description Only these missions; empty: any
                                     * @default []
                                     */
                                    missions: string[];
                                    /**
                                     * @description Only members of these groups; empty: everyone
                                     * @default []
                                     */
                                    groups: string[];
                                }[];
                                awardSettings?: {
                                    pointCategory: string;
                                    currency: string;
                                    conversionRate: number;
                                    /** @default [] */
                                    marketplaces: {
                                        type: string;
                                        urlTemplate: string;
                                    }[];
                                    /** @default [] */
                                    allowedCountries: string[];
                                    /** @default false */
                                    verificationRequired: boolean;
                                    /**
                                     * @description Days a credit from points stays pending before it can be spent
                                     * @default 0
                                     */
                                    holdDays: number;
                                };
                            };
                        };
                    };
                };
            };
        };
        /**
         * Replace the whole program atomically (validated first; nothing changes on any error)
         * @description The body is the program, or a saved GET /admin/program answer as it is (`{"response": program}`): what GET reads, PUT loads.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        site: {
                            name: string;
                            /**
                             * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                             * @default America/Los_Angeles
                             */
                            timezone?: string;
                            /** @default points */
                            levelType?: "points" | "custom";
                            achievementCallbackUrl?: string;
                            giftNotifyUrl?: string;
                            itemPurchaseNotifyUrl?: string;
                            /** @description Write-only: reads show only its last 4 characters */
                            webhookSecret?: string;
                            /** @default [] */
                            allowedOrigins?: string[];
                            userlinkUrl?: string;
                            whitelistDisabled?: boolean;
                            authenticationDisabled?: boolean;
                            userFilterPrefix?: string;
                            catalogBuyBackPercent?: number;
                            ownedItemFeedDescription?: string;
                            giftItemFeedDescription?: string;
                            subdomain?: string;
                            enforceSubdomain?: boolean;
                            version?: string;
                        };
                        pointCategories: {
                            /** @description The category name, also its id */
                            name: string;
                            /** @default false */
                            isDefault?: boolean;
                            /** @description Most a user earns per calendar day (site time zone) */
                            dailyLimit?: number;
                            /** @description Most a user earns per calendar year (site time zone) */
                            yearlyLimit?: number;
                            /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                            expiry?: {
                                /** @description Points expire this many days after they were earned */
                                afterDays?: number;
                                /** @description Points earned before this local date-time (site time zone) expire at it */
                                date?: string;
                            };
                        }[];
                        /** @default [] */
                        actions?: {
                            /** @description Unique, case-insensitive */
                            name: string;
                            description?: string;
                            rateLimit?: {
                                max: number;
                                period: "minute" | "hour" | "day" | "week";
                            };
                            /** @default false */
                            suppressRepeats?: boolean;
                            /** @default false */
                            clientLoggable?: boolean;
                        }[];
                        /** @default [] */
                        badges?: {
                            id: string;
                            name: string;
                            description?: string;
                            iconUrl?: string;
                        }[];
                        /** @default [] */
                        levels?: {
                            id: string;
                            name: string;
                            description?: string;
                            iconUrl?: string;
                            threshold: number;
                        }[];
                        /** @default [] */
                        groups?: {
                            id: string;
                            name: string;
                            type?: string;
                        }[];
                        /** @default [] */
                        missions?: {
                            id: string;
                            name: string;
                            description?: string;
                            iconUrl?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            startDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            endDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            featuredStartDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            featuredEndDate?: string;
                            /**
                             * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                             * @default America/Los_Angeles
                             */
                            timezone?: string;
                            /** @default not_hidden */
                            hidden?: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                            /** @default {} */
                            prerequisites?: {
                                /** @default [] */
                                groups?: string[];
                                /** @default [] */
                                missions?: string[];
                                /** @description A level id: only users who have reached it see and advance the mission */
                                minLevel?: string;
                                /** @description Members of any of these groups do not see or advance the mission */
                                excludedGroups?: string[];
                            };
                            /** @default user */
                            party?: "user" | "group";
                            /** @default all */
                            ruleMatch?: "all" | "any";
                            rules: {
                                id: string;
                                /** @description An action name (case-insensitive) */
                                action: string;
                                /** @default count */
                                type?: "count" | "sum";
                                goal: number;
                                /** @default [] */
                                metadata?: {
                                    name: string;
                                    value: string;
                                }[];
                            }[];
                            /** @default {} */
                            rewards?: {
                                /** @default [] */
                                points?: {
                                    category: string;
                                    amount: number;
                                }[];
                                multiplier?: number;
                                badge?: string;
                            };
                            repeatableWindow?: {
                                period: "none" | "day" | "week" | "month";
                                maxPerPeriod?: number;
                            };
                            /** @default 0 */
                            importance?: number;
                            /** @description At most this many completions site-wide */
                            supply?: number;
                        }[];
                        /** @default [] */
                        leaderboards?: {
                            id: string;
                            name: string;
                            metric: {
                                type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                category?: string;
                                action?: string;
                            };
                            /** @default allTime */
                            period?: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                            /** @default user */
                            party?: "user" | "group";
                            groupFilter?: string;
                            /** @default 100 */
                            size?: number;
                            /** @default false */
                            primary?: boolean;
                            /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                            end?: string;
                            /** @description Paid once to the final standings of each window that closes */
                            prizes?: {
                                /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                ranks: string;
                                rewards: {
                                    /** @default [] */
                                    points?: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    badge?: string;
                                };
                            }[];
                        }[];
                        /** @default [] */
                        layouts?: {
                            uuid: string;
                            name: string;
                            /** @default [] */
                            leaderboards?: string[];
                        }[];
                        /** @default [] */
                        quizzes?: {
                            id: string;
                            name: string;
                            description?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            startDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            endDate?: string;
                            /**
                             * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                             * @default America/Los_Angeles
                             */
                            timezone?: string;
                            /** @default 100 */
                            passingPercent?: number;
                            maxAttempts?: number;
                            questions: {
                                id: string;
                                text: string;
                                /** @default single */
                                type?: "single" | "multiple";
                                choices: {
                                    id: string;
                                    text: string;
                                    /** @default false */
                                    correct?: boolean;
                                }[];
                            }[];
                        }[];
                        /** @default [] */
                        exchanges?: {
                            id: string;
                            name: string;
                            description?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            startDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            endDate?: string;
                            /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                            timezone?: string;
                            /**
                             * @description Empty: everyone
                             * @default {}
                             */
                            givers?: {
                                /** @default [] */
                                groups?: string[];
                            };
                            /**
                             * @description Empty: everyone
                             * @default {}
                             */
                            recipients?: {
                                /** @default [] */
                                groups?: string[];
                            };
                            pointCategory: string;
                            budget: {
                                amount: number;
                                period: "none" | "month" | "quarter" | "year";
                            };
                            /** @default 1 */
                            minPoints?: number;
                            maxPoints?: number;
                            /** @default 10 */
                            maxRecipients?: number;
                            /** @default [] */
                            categories?: {
                                id: string;
                                name: string;
                                iconUrl?: string;
                            }[];
                        }[];
                        streaks?: {
                            id: string;
                            name: string;
                            description?: string;
                            iconUrl?: string;
                            /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                            action?: string;
                            /** @description A period counts when the user completes this mission in it */
                            mission?: string;
                            /**
                             * @description Calendar days or weeks (starting Sunday) in the site time zone
                             * @default day
                             */
                            period?: "day" | "week";
                            /**
                             * @description A missed period uses a freeze instead of breaking the streak
                             * @default {}
                             */
                            freezes?: {
                                /**
                                 * @description Most freezes a user holds
                                 * @default 0
                                 */
                                max?: number;
                                /**
                                 * @description Freezes a user starts with
                                 * @default 0
                                 */
                                initial?: number;
                                /** @description One freeze is earned every this many periods in a run */
                                earnEvery?: number;
                            };
                            /**
                             * @description Paid once per run when the streak reaches the length
                             * @default []
                             */
                            milestones?: {
                                length: number;
                                rewards: {
                                    /** @default [] */
                                    points?: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    badge?: string;
                                };
                            }[];
                        }[];
                        boosts?: {
                            id: string;
                            name?: string;
                            /** @description Point rewards in the window are multiplied by this (rounded down) */
                            multiplier: number;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            start: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            end: string;
                            /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                            timezone?: string;
                            /**
                             * @description Only rewards of missions advanced by these actions; empty: any
                             * @default []
                             */
                            actions?: string[];
                            /**
                             * @description Only these missions; empty: any
                             * @default []
                             */
                            missions?: string[];
                            /**
                             * @description Only members of these groups; empty: everyone
                             * @default []
                             */
                            groups?: string[];
                        }[];
                        awardSettings?: {
                            pointCategory: string;
                            currency: string;
                            conversionRate: number;
                            /** @default [] */
                            marketplaces?: {
                                type: string;
                                urlTemplate: string;
                            }[];
                            /** @default [] */
                            allowedCountries?: string[];
                            /** @default false */
                            verificationRequired?: boolean;
                            /**
                             * @description Days a credit from points stays pending before it can be spent
                             * @default 0
                             */
                            holdDays?: number;
                        };
                    } | {
                        response: {
                            site: {
                                name: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone?: string;
                                /** @default points */
                                levelType?: "points" | "custom";
                                achievementCallbackUrl?: string;
                                giftNotifyUrl?: string;
                                itemPurchaseNotifyUrl?: string;
                                /** @description Write-only: reads show only its last 4 characters */
                                webhookSecret?: string;
                                /** @default [] */
                                allowedOrigins?: string[];
                                userlinkUrl?: string;
                                whitelistDisabled?: boolean;
                                authenticationDisabled?: boolean;
                                userFilterPrefix?: string;
                                catalogBuyBackPercent?: number;
                                ownedItemFeedDescription?: string;
                                giftItemFeedDescription?: string;
                                subdomain?: string;
                                enforceSubdomain?: boolean;
                                version?: string;
                            };
                            pointCategories: {
                                /** @description The category name, also its id */
                                name: string;
                                /** @default false */
                                isDefault?: boolean;
                                /** @description Most a user earns per calendar day (site time zone) */
                                dailyLimit?: number;
                                /** @description Most a user earns per calendar year (site time zone) */
                                yearlyLimit?: number;
                                /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                expiry?: {
                                    /** @description Points expire this many days after they were earned */
                                    afterDays?: number;
                                    /** @description Points earned before this local date-time (site time zone) expire at it */
                                    date?: string;
                                };
                            }[];
                            /** @default [] */
                            actions?: {
                                /** @description Unique, case-insensitive */
                                name: string;
                                description?: string;
                                rateLimit?: {
                                    max: number;
                                    period: "minute" | "hour" | "day" | "week";
                                };
                                /** @default false */
                                suppressRepeats?: boolean;
                                /** @default false */
                                clientLoggable?: boolean;
                            }[];
                            /** @default [] */
                            badges?: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                            }[];
                            /** @default [] */
                            levels?: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                threshold: number;
                            }[];
                            /** @default [] */
                            groups?: {
                                id: string;
                                name: string;
                                type?: string;
                            }[];
                            /** @default [] */
                            missions?: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredStartDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredEndDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone?: string;
                                /** @default not_hidden */
                                hidden?: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                /** @default {} */
                                prerequisites?: {
                                    /** @default [] */
                                    groups?: string[];
                                    /** @default [] */
                                    missions?: string[];
                                    /** @description A level id: only users who have reached it see and advance the mission */
                                    minLevel?: string;
                                    /** @description Members of any of these groups do not see or advance the mission */
                                    excludedGroups?: string[];
                                };
                                /** @default user */
                                party?: "user" | "group";
                                /** @default all */
                                ruleMatch?: "all" | "any";
                                rules: {
                                    id: string;
                                    /** @description An action name (case-insensitive) */
                                    action: string;
                                    /** @default count */
                                    type?: "count" | "sum";
                                    goal: number;
                                    /** @default [] */
                                    metadata?: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                                /** @default {} */
                                rewards?: {
                                    /** @default [] */
                                    points?: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                repeatableWindow?: {
                                    period: "none" | "day" | "week" | "month";
                                    maxPerPeriod?: number;
                                };
                                /** @default 0 */
                                importance?: number;
                                /** @description At most this many completions site-wide */
                                supply?: number;
                            }[];
                            /** @default [] */
                            leaderboards?: {
                                id: string;
                                name: string;
                                metric: {
                                    type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                    category?: string;
                                    action?: string;
                                };
                                /** @default allTime */
                                period?: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                /** @default user */
                                party?: "user" | "group";
                                groupFilter?: string;
                                /** @default 100 */
                                size?: number;
                                /** @default false */
                                primary?: boolean;
                                /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                end?: string;
                                /** @description Paid once to the final standings of each window that closes */
                                prizes?: {
                                    /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                    ranks: string;
                                    rewards: {
                                        /** @default [] */
                                        points?: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            }[];
                            /** @default [] */
                            layouts?: {
                                uuid: string;
                                name: string;
                                /** @default [] */
                                leaderboards?: string[];
                            }[];
                            /** @default [] */
                            quizzes?: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone?: string;
                                /** @default 100 */
                                passingPercent?: number;
                                maxAttempts?: number;
                                questions: {
                                    id: string;
                                    text: string;
                                    /** @default single */
                                    type?: "single" | "multiple";
                                    choices: {
                                        id: string;
                                        text: string;
                                        /** @default false */
                                        correct?: boolean;
                                    }[];
                                }[];
                            }[];
                            /** @default [] */
                            exchanges?: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                timezone?: string;
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                givers?: {
                                    /** @default [] */
                                    groups?: string[];
                                };
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                recipients?: {
                                    /** @default [] */
                                    groups?: string[];
                                };
                                pointCategory: string;
                                budget: {
                                    amount: number;
                                    period: "none" | "month" | "quarter" | "year";
                                };
                                /** @default 1 */
                                minPoints?: number;
                                maxPoints?: number;
                                /** @default 10 */
                                maxRecipients?: number;
                                /** @default [] */
                                categories?: {
                                    id: string;
                                    name: string;
                                    iconUrl?: string;
                                }[];
                            }[];
                            streaks?: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                action?: string;
                                /** @description A period counts when the user completes this mission in it */
                                mission?: string;
                                /**
                                 * @description Calendar days or weeks (starting Sunday) in the site time zone
                                 * @default day
                                 */
                                period?: "day" | "week";
                                /**
                                 * @description A missed period uses a freeze instead of breaking the streak
                                 * @default {}
                                 */
                                freezes?: {
                                    /**
                                     * @description Most freezes a user holds
                                     * @default 0
                                     */
                                    max?: number;
                                    /**
                                     * @description Freezes a user starts with
                                     * @default 0
                                     */
                                    initial?: number;
                                    /** @description One freeze is earned every this many periods in a run */
                                    earnEvery?: number;
                                };
                                /**
                                 * @description Paid once per run when the streak reaches the length
                                 * @default []
                                 */
                                milestones?: {
                                    length: number;
                                    rewards: {
                                        /** @default [] */
                                        points?: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            }[];
                            boosts?: {
                                id: string;
                                name?: string;
                                /** @description Point rewards in the window are multiplied by this (rounded down) */
                                multiplier: number;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                start: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                end: string;
                                /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                timezone?: string;
                                /**
                                 * @description Only rewards of missions advanced by these actions; empty: any
                                 * @default []
                                 */
                                actions?: string[];
                                /**
                                 * @description Only these missions; empty: any
                                 * @default []
                                 */
                                missions?: string[];
                                /**
                                 * @description Only members of these groups; empty: everyone
                                 * @default []
                                 */
                                groups?: string[];
                            }[];
                            awardSettings?: {
                                pointCategory: string;
                                currency: string;
                                conversionRate: number;
                                /** @default [] */
                                marketplaces?: {
                                    type: string;
                                    urlTemplate: string;
                                }[];
                                /** @default [] */
                                allowedCountries?: string[];
                                /** @default false */
                                verificationRequired?: boolean;
                                /**
                                 * @description Days a credit from points stays pending before it can be spent
                                 * @default 0
                                 */
                                holdDays?: number;
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                site: {
                                    name: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default points */
                                    levelType: "points" | "custom";
                                    achievementCallbackUrl?: string;
                                    giftNotifyUrl?: string;
                                    itemPurchaseNotifyUrl?: string;
                                    /** @description Write-only: reads show only its last 4 characters */
                                    webhookSecret?: string;
                                    /** @default [] */
                                    allowedOrigins: string[];
                                    userlinkUrl?: string;
                                    whitelistDisabled?: boolean;
                                    authenticationDisabled?: boolean;
                                    userFilterPrefix?: string;
                                    catalogBuyBackPercent?: number;
                                    ownedItemFeedDescription?: string;
                                    giftItemFeedDescription?: string;
                                    subdomain?: string;
                                    enforceSubdomain?: boolean;
                                    version?: string;
                                };
                                pointCategories: {
                                    /** @description The category name, also its id */
                                    name: string;
                                    /** @default false */
                                    isDefault: boolean;
                                    /** @description Most a user earns per calendar day (site time zone) */
                                    dailyLimit?: number;
                                    /** @description Most a user earns per calendar year (site time zone) */
                                    yearlyLimit?: number;
                                    /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                    expiry?: {
                                        /** @description Points expire this many days after they were earned */
                                        afterDays?: number;
                                        /** @description Points earned before this local date-time (site time zone) expire at it */
                                        date?: string;
                                    };
                                }[];
                                /** @default [] */
                                actions: {
                                    /** @description Unique, case-insensitive */
                                    name: string;
                                    description?: string;
                                    rateLimit?: {
                                        max: number;
                                        period: "minute" | "hour" | "day" | "week";
                                    };
                                    /** @default false */
                                    suppressRepeats: boolean;
                                    /** @default false */
                                    clientLoggable: boolean;
                                }[];
                                /** @default [] */
                                badges: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                }[];
                                /** @default [] */
                                levels: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    threshold: number;
                                }[];
                                /** @default [] */
                                groups: {
                                    id: string;
                                    name: string;
                                    type?: string;
                                }[];
                                /** @default [] */
                                missions: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    featuredStartDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    featuredEndDate?: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default not_hidden */
                                    hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                    /** @default {} */
                                    prerequisites: {
                                        /** @default [] */
                                        groups: string[];
                                        /** @default [] */
                                        missions: string[];
                                        /** @description A level id: only users who have reached it see and advance the mission */
                                        minLevel?: string;
                                        /** @description Members of any of these groups do not see or advance the mission */
                                        excludedGroups?: string[];
                                    };
                                    /** @default user */
                                    party: "user" | "group";
                                    /** @default all */
                                    ruleMatch: "all" | "any";
                                    rules: {
                                        id: string;
                                        /** @description An action name (case-insensitive) */
                                        action: string;
                                        /** @default count */
                                        type: "count" | "sum";
                                        goal: number;
                                        /** @default [] */
                                        metadata: {
                                            name: string;
                                            value: string;
                                        }[];
                                    }[];
                                    /** @default {} */
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        multiplier?: number;
                                        badge?: string;
                                    };
                                    repeatableWindow?: {
                                        period: "none" | "day" | "week" | "month";
                                        maxPerPeriod?: number;
                                    };
                                    /** @default 0 */
                                    importance: number;
                                    /** @description At most this many completions site-wide */
                                    supply?: number;
                                }[];
                                /** @default [] */
                                leaderboards: {
                                    id: string;
                                    name: string;
                                    metric: {
                                        type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                        category?: string;
                                        action?: string;
                                    };
                                    /** @default allTime */
                                    period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                    /** @default user */
                                    party: "user" | "group";
                                    groupFilter?: string;
                                    /** @default 100 */
                                    size: number;
                                    /** @default false */
                                    primary: boolean;
                                    /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                    end?: string;
                                    /** @description Paid once to the final standings of each window that closes */
                                    prizes?: {
                                        /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                        ranks: string;
                                        rewards: {
                                            /** @default [] */
                                            points: {
                                                category: string;
                                                amount: number;
                                            }[];
                                            badge?: string;
                                        };
                                    }[];
                                }[];
                                /** @default [] */
                                layouts: {
                                    uuid: string;
                                    name: string;
                                    /** @default [] */
                                    leaderboards: string[];
                                }[];
                                /** @default [] */
                                quizzes: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default 100 */
                                    passingPercent: number;
                                    maxAttempts?: number;
                                    questions: {
                                        id: string;
                                        text: string;
                                        /** @default single */
                                        type: "single" | "multiple";
                                        choices: {
                                            id: string;
                                            text: string;
                                            /** @default false */
                                            correct: boolean;
                                        }[];
                                    }[];
                                }[];
                                /** @default [] */
                                exchanges: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                    timezone?: string;
                                    /**
                                     * @description Empty: everyone
                                     * @default {}
                                     */
                                    givers: {
                                        /** @default [] */
                                        groups: string[];
                                    };
                                    /**
                                     * @description Empty: everyone
                                     * @default {}
                                     */
                                    recipients: {
                                        /** @default [] */
                                        groups: string[];
                                    };
                                    pointCategory: string;
                                    budget: {
                                        amount: number;
                                        period: "none" | "month" | "quarter" | "year";
                                    };
                                    /** @default 1 */
                                    minPoints: number;
                                    maxPoints?: number;
                                    /** @default 10 */
                                    maxRecipients: number;
                                    /** @default [] */
                                    categories: {
                                        id: string;
                                        name: string;
                                        iconUrl?: string;
                                    }[];
                                }[];
                                streaks?: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                    action?: string;
                                    /** @description A period counts when the user completes this mission in it */
                                    mission?: string;
                                    /**
                                     * @description Calendar days or weeks (starting Sunday) in the site time zone
                                     * @default day
                                     */
                                    period: "day" | "week";
                                    /**
                                     * @description A missed period uses a freeze instead of breaking the streak
                                     * @default {}
                                     */
                                    freezes: {
                                        /**
                                         * @description Most freezes a user holds
                                         * @default 0
                                         */
                                        max: number;
                                        /**
                                         * @description Freezes a user starts with
                                         * @default 0
                                         */
                                        initial: number;
                                        /** @description One freeze is earned every this many periods in a run */
                                        earnEvery?: number;
                                    };
                                    /**
                                     * @description Paid once per run when the streak reaches the length
                                     * @default []
                                     */
                                    milestones: {
                                        length: number;
                                        rewards: {
                                            /** @default [] */
                                            points: {
                                                category: string;
                                                amount: number;
                                            }[];
                                            badge?: string;
                                        };
                                    }[];
                                }[];
                                boosts?: {
                                    id: string;
                                    name?: string;
                                    /** @description Point rewards in the window are multiplied by this (rounded down) */
                                    multiplier: number;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    start: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    end: string;
                                    /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                    timezone?: string;
                                    /**
                                     * @description Only rewards of missions advanced by these actions; empty: any
                                     * @default []
                                     */
                                    actions: string[];
                                    /**
                                     * @description Only these missions; empty: any
                                     * @default []
                                     */
                                    missions: string[];
                                    /**
                                     * @description Only members of these groups; empty: everyone
                                     * @default []
                                     */
                                    groups: string[];
                                }[];
                                awardSettings?: {
                                    pointCategory: string;
                                    currency: string;
                                    conversionRate: number;
                                    /** @default [] */
                                    marketplaces: {
                                        type: string;
                                        urlTemplate: string;
                                    }[];
                                    /** @default [] */
                                    allowedCountries: string[];
                                    /** @default false */
                                    verificationRequired: boolean;
                                    /**
                                     * @description Days a credit from points stays pending before it can be spent
                                     * @default 0
                                     */
                                    holdDays: number;
                                };
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/site": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Site settings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                name: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default points */
                                levelType: "points" | "custom";
                                achievementCallbackUrl?: string;
                                giftNotifyUrl?: string;
                                itemPurchaseNotifyUrl?: string;
                                /** @description Write-only: reads show only its last 4 characters */
                                webhookSecret?: string;
                                /** @default [] */
                                allowedOrigins: string[];
                                userlinkUrl?: string;
                                whitelistDisabled?: boolean;
                                authenticationDisabled?: boolean;
                                userFilterPrefix?: string;
                                catalogBuyBackPercent?: number;
                                ownedItemFeedDescription?: string;
                                giftItemFeedDescription?: string;
                                subdomain?: string;
                                enforceSubdomain?: boolean;
                                version?: string;
                            };
                        };
                    };
                };
            };
        };
        /** Replace the site settings */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /**
                         * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                         * @default America/Los_Angeles
                         */
                        timezone?: string;
                        /** @default points */
                        levelType?: "points" | "custom";
                        achievementCallbackUrl?: string;
                        giftNotifyUrl?: string;
                        itemPurchaseNotifyUrl?: string;
                        /** @description Write-only: reads show only its last 4 characters */
                        webhookSecret?: string;
                        /** @default [] */
                        allowedOrigins?: string[];
                        userlinkUrl?: string;
                        whitelistDisabled?: boolean;
                        authenticationDisabled?: boolean;
                        userFilterPrefix?: string;
                        catalogBuyBackPercent?: number;
                        ownedItemFeedDescription?: string;
                        giftItemFeedDescription?: string;
                        subdomain?: string;
                        enforceSubdomain?: boolean;
                        version?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        name: string;
                        /**
                         * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                         * @default America/Los_Angeles
                         */
                        timezone?: string;
                        /** @default points */
                        levelType?: "points" | "custom";
                        achievementCallbackUrl?: string;
                        giftNotifyUrl?: string;
                        itemPurchaseNotifyUrl?: string;
                        /** @description Write-only: reads show only its last 4 characters */
                        webhookSecret?: string;
                        /** @default [] */
                        allowedOrigins?: string[];
                        userlinkUrl?: string;
                        whitelistDisabled?: boolean;
                        authenticationDisabled?: boolean;
                        userFilterPrefix?: string;
                        catalogBuyBackPercent?: number;
                        ownedItemFeedDescription?: string;
                        giftItemFeedDescription?: string;
                        subdomain?: string;
                        enforceSubdomain?: boolean;
                        version?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                name: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default points */
                                levelType: "points" | "custom";
                                achievementCallbackUrl?: string;
                                giftNotifyUrl?: string;
                                itemPurchaseNotifyUrl?: string;
                                /** @description Write-only: reads show only its last 4 characters */
                                webhookSecret?: string;
                                /** @default [] */
                                allowedOrigins: string[];
                                userlinkUrl?: string;
                                whitelistDisabled?: boolean;
                                authenticationDisabled?: boolean;
                                userFilterPrefix?: string;
                                catalogBuyBackPercent?: number;
                                ownedItemFeedDescription?: string;
                                giftItemFeedDescription?: string;
                                subdomain?: string;
                                enforceSubdomain?: boolean;
                                version?: string;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/award-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Award account settings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                pointCategory: string;
                                currency: string;
                                conversionRate: number;
                                /** @default [] */
                                marketplaces: {
                                    type: string;
                                    urlTemplate: string;
                                }[];
                                /** @default [] */
                                allowedCountries: string[];
                                /** @default false */
                                verificationRequired: boolean;
                                /**
                                 * @description Days a credit from points stays pending before it can be spent
                                 * @default 0
                                 */
                                holdDays: number;
                            };
                        };
                    };
                };
            };
        };
        /** Set the award account settings */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        pointCategory: string;
                        currency: string;
                        conversionRate: number;
                        /** @default [] */
                        marketplaces: {
                            type: string;
                            urlTemplate: string;
                        }[];
                        /** @default [] */
                        allowedCountries: string[];
                        /** @default false */
                        verificationRequired: boolean;
                        /**
                         * @description Days a credit from points stays pending before it can be spent
                         * @default 0
                         */
                        holdDays: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                pointCategory: string;
                                currency: string;
                                conversionRate: number;
                                /** @default [] */
                                marketplaces: {
                                    type: string;
                                    urlTemplate: string;
                                }[];
                                /** @default [] */
                                allowedCountries: string[];
                                /** @default false */
                                verificationRequired: boolean;
                                /**
                                 * @description Days a credit from points stays pending before it can be spent
                                 * @default 0
                                 */
                                holdDays: number;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove the award account settings */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List actions */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Unique, case-insensitive */
                                name: string;
                                description?: string;
                                rateLimit?: {
                                    max: number;
                                    period: "minute" | "hour" | "day" | "week";
                                };
                                /** @default false */
                                suppressRepeats: boolean;
                                /** @default false */
                                clientLoggable: boolean;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a action */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Unique, case-insensitive */
                        name: string;
                        description?: string;
                        rateLimit?: {
                            max: number;
                            period: "minute" | "hour" | "day" | "week";
                        };
                        /** @default false */
                        suppressRepeats?: boolean;
                        /** @default false */
                        clientLoggable?: boolean;
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description Unique, case-insensitive */
                        name: string;
                        description?: string;
                        rateLimit?: {
                            max: number;
                            period: "minute" | "hour" | "day" | "week";
                        };
                        /** @default false */
                        suppressRepeats?: boolean;
                        /** @default false */
                        clientLoggable?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Unique, case-insensitive */
                                name: string;
                                description?: string;
                                rateLimit?: {
                                    max: number;
                                    period: "minute" | "hour" | "day" | "week";
                                };
                                /** @default false */
                                suppressRepeats: boolean;
                                /** @default false */
                                clientLoggable: boolean;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/actions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One action */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Unique, case-insensitive */
                                name: string;
                                description?: string;
                                rateLimit?: {
                                    max: number;
                                    period: "minute" | "hour" | "day" | "week";
                                };
                                /** @default false */
                                suppressRepeats: boolean;
                                /** @default false */
                                clientLoggable: boolean;
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a action */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Unique, case-insensitive */
                        name: string;
                        description?: string;
                        rateLimit?: {
                            max: number;
                            period: "minute" | "hour" | "day" | "week";
                        };
                        /** @default false */
                        suppressRepeats?: boolean;
                        /** @default false */
                        clientLoggable?: boolean;
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description Unique, case-insensitive */
                        name: string;
                        description?: string;
                        rateLimit?: {
                            max: number;
                            period: "minute" | "hour" | "day" | "week";
                        };
                        /** @default false */
                        suppressRepeats?: boolean;
                        /** @default false */
                        clientLoggable?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Unique, case-insensitive */
                                name: string;
                                description?: string;
                                rateLimit?: {
                                    max: number;
                                    period: "minute" | "hour" | "day" | "week";
                                };
                                /** @default false */
                                suppressRepeats: boolean;
                                /** @default false */
                                clientLoggable: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Unique, case-insensitive */
                                name: string;
                                description?: string;
                                rateLimit?: {
                                    max: number;
                                    period: "minute" | "hour" | "day" | "week";
                                };
                                /** @default false */
                                suppressRepeats: boolean;
                                /** @default false */
                                clientLoggable: boolean;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a action (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/point-categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List point-categories */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The category name, also its id */
                                name: string;
                                /** @default false */
                                isDefault: boolean;
                                /** @description Most a user earns per calendar day (site time zone) */
                                dailyLimit?: number;
                                /** @description Most a user earns per calendar year (site time zone) */
                                yearlyLimit?: number;
                                /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                expiry?: {
                                    /** @description Points expire this many days after they were earned */
                                    afterDays?: number;
                                    /** @description Points earned before this local date-time (site time zone) expire at it */
                                    date?: string;
                                };
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a point category */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The category name, also its id */
                        name: string;
                        /** @default false */
                        isDefault?: boolean;
                        /** @description Most a user earns per calendar day (site time zone) */
                        dailyLimit?: number;
                        /** @description Most a user earns per calendar year (site time zone) */
                        yearlyLimit?: number;
                        /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                        expiry?: {
                            /** @description Points expire this many days after they were earned */
                            afterDays?: number;
                            /** @description Points earned before this local date-time (site time zone) expire at it */
                            date?: string;
                        };
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description The category name, also its id */
                        name: string;
                        /** @default false */
                        isDefault?: boolean;
                        /** @description Most a user earns per calendar day (site time zone) */
                        dailyLimit?: number;
                        /** @description Most a user earns per calendar year (site time zone) */
                        yearlyLimit?: number;
                        /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                        expiry?: {
                            /** @description Points expire this many days after they were earned */
                            afterDays?: number;
                            /** @description Points earned before this local date-time (site time zone) expire at it */
                            date?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The category name, also its id */
                                name: string;
                                /** @default false */
                                isDefault: boolean;
                                /** @description Most a user earns per calendar day (site time zone) */
                                dailyLimit?: number;
                                /** @description Most a user earns per calendar year (site time zone) */
                                yearlyLimit?: number;
                                /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                expiry?: {
                                    /** @description Points expire this many days after they were earned */
                                    afterDays?: number;
                                    /** @description Points earned before this local date-time (site time zone) expire at it */
                                    date?: string;
                                };
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/point-categories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One point category */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The category name, also its id */
                                name: string;
                                /** @default false */
                                isDefault: boolean;
                                /** @description Most a user earns per calendar day (site time zone) */
                                dailyLimit?: number;
                                /** @description Most a user earns per calendar year (site time zone) */
                                yearlyLimit?: number;
                                /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                expiry?: {
                                    /** @description Points expire this many days after they were earned */
                                    afterDays?: number;
                                    /** @description Points earned before this local date-time (site time zone) expire at it */
                                    date?: string;
                                };
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a point category */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The category name, also its id */
                        name: string;
                        /** @default false */
                        isDefault?: boolean;
                        /** @description Most a user earns per calendar day (site time zone) */
                        dailyLimit?: number;
                        /** @description Most a user earns per calendar year (site time zone) */
                        yearlyLimit?: number;
                        /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                        expiry?: {
                            /** @description Points expire this many days after they were earned */
                            afterDays?: number;
                            /** @description Points earned before this local date-time (site time zone) expire at it */
                            date?: string;
                        };
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description The category name, also its id */
                        name: string;
                        /** @default false */
                        isDefault?: boolean;
                        /** @description Most a user earns per calendar day (site time zone) */
                        dailyLimit?: number;
                        /** @description Most a user earns per calendar year (site time zone) */
                        yearlyLimit?: number;
                        /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                        expiry?: {
                            /** @description Points expire this many days after they were earned */
                            afterDays?: number;
                            /** @description Points earned before this local date-time (site time zone) expire at it */
                            date?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The category name, also its id */
                                name: string;
                                /** @default false */
                                isDefault: boolean;
                                /** @description Most a user earns per calendar day (site time zone) */
                                dailyLimit?: number;
                                /** @description Most a user earns per calendar year (site time zone) */
                                yearlyLimit?: number;
                                /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                expiry?: {
                                    /** @description Points expire this many days after they were earned */
                                    afterDays?: number;
                                    /** @description Points earned before this local date-time (site time zone) expire at it */
                                    date?: string;
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The category name, also its id */
                                name: string;
                                /** @default false */
                                isDefault: boolean;
                                /** @description Most a user earns per calendar day (site time zone) */
                                dailyLimit?: number;
                                /** @description Most a user earns per calendar year (site time zone) */
                                yearlyLimit?: number;
                                /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                expiry?: {
                                    /** @description Points expire this many days after they were earned */
                                    afterDays?: number;
                                    /** @description Points earned before this local date-time (site time zone) expire at it */
                                    date?: string;
                                };
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a point category (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/challenges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List challenges */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredStartDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredEndDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default not_hidden */
                                hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                /** @default {} */
                                prerequisites: {
                                    /** @default [] */
                                    groups: string[];
                                    /** @default [] */
                                    missions: string[];
                                    /** @description A level id: only users who have reached it see and advance the mission */
                                    minLevel?: string;
                                    /** @description Members of any of these groups do not see or advance the mission */
                                    excludedGroups?: string[];
                                };
                                /** @default user */
                                party: "user" | "group";
                                /** @default all */
                                ruleMatch: "all" | "any";
                                rules: {
                                    id: string;
                                    /** @description An action name (case-insensitive) */
                                    action: string;
                                    /** @default count */
                                    type: "count" | "sum";
                                    goal: number;
                                    /** @default [] */
                                    metadata: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                                /** @default {} */
                                rewards: {
                                    /** @default [] */
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                repeatableWindow?: {
                                    period: "none" | "day" | "week" | "month";
                                    maxPerPeriod?: number;
                                };
                                /** @default 0 */
                                importance: number;
                                /** @description At most this many completions site-wide */
                                supply?: number;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a mission */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        startDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        endDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        featuredStartDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        featuredEndDate?: string;
                        /**
                         * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                         * @default America/Los_Angeles
                         */
                        timezone?: string;
                        /** @default not_hidden */
                        hidden?: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                        /** @default {} */
                        prerequisites?: {
                            /** @default [] */
                            groups?: string[];
                            /** @default [] */
                            missions?: string[];
                            /** @description A level id: only users who have reached it see and advance the mission */
                            minLevel?: string;
                            /** @description Members of any of these groups do not see or advance the mission */
                            excludedGroups?: string[];
                        };
                        /** @default user */
                        party?: "user" | "group";
                        /** @default all */
                        ruleMatch?: "all" | "any";
                        rules: {
                            id: string;
                            /** @description An action name (case-insensitive) */
                            action: string;
                            /** @default count */
                            type?: "count" | "sum";
                            goal: number;
                            /** @default [] */
                            metadata?: {
                                name: string;
                                value: string;
                            }[];
                        }[];
                        /** @default {} */
                        rewards?: {
                            /** @default [] */
                            points?: {
                                category: string;
                                amount: number;
                            }[];
                            multiplier?: number;
                            badge?: string;
                        };
                        repeatableWindow?: {
                            period: "none" | "day" | "week" | "month";
                            maxPerPeriod?: number;
                        };
                        /** @default 0 */
                        importance?: number;
                        /** @description At most this many completions site-wide */
                        supply?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredStartDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredEndDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default not_hidden */
                                hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                /** @default {} */
                                prerequisites: {
                                    /** @default [] */
                                    groups: string[];
                                    /** @default [] */
                                    missions: string[];
                                    /** @description A level id: only users who have reached it see and advance the mission */
                                    minLevel?: string;
                                    /** @description Members of any of these groups do not see or advance the mission */
                                    excludedGroups?: string[];
                                };
                                /** @default user */
                                party: "user" | "group";
                                /** @default all */
                                ruleMatch: "all" | "any";
                                rules: {
                                    id: string;
                                    /** @description An action name (case-insensitive) */
                                    action: string;
                                    /** @default count */
                                    type: "count" | "sum";
                                    goal: number;
                                    /** @default [] */
                                    metadata: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                                /** @default {} */
                                rewards: {
                                    /** @default [] */
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                repeatableWindow?: {
                                    period: "none" | "day" | "week" | "month";
                                    maxPerPeriod?: number;
                                };
                                /** @default 0 */
                                importance: number;
                                /** @description At most this many completions site-wide */
                                supply?: number;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/challenges/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One mission */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredStartDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredEndDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default not_hidden */
                                hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                /** @default {} */
                                prerequisites: {
                                    /** @default [] */
                                    groups: string[];
                                    /** @default [] */
                                    missions: string[];
                                    /** @description A level id: only users who have reached it see and advance the mission */
                                    minLevel?: string;
                                    /** @description Members of any of these groups do not see or advance the mission */
                                    excludedGroups?: string[];
                                };
                                /** @default user */
                                party: "user" | "group";
                                /** @default all */
                                ruleMatch: "all" | "any";
                                rules: {
                                    id: string;
                                    /** @description An action name (case-insensitive) */
                                    action: string;
                                    /** @default count */
                                    type: "count" | "sum";
                                    goal: number;
                                    /** @default [] */
                                    metadata: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                                /** @default {} */
                                rewards: {
                                    /** @default [] */
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                repeatableWindow?: {
                                    period: "none" | "day" | "week" | "month";
                                    maxPerPeriod?: number;
                                };
                                /** @default 0 */
                                importance: number;
                                /** @description At most this many completions site-wide */
                                supply?: number;
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a mission */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        startDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        endDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        featuredStartDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        featuredEndDate?: string;
                        /**
                         * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                         * @default America/Los_Angeles
                         */
                        timezone?: string;
                        /** @default not_hidden */
                        hidden?: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                        /** @default {} */
                        prerequisites?: {
                            /** @default [] */
                            groups?: string[];
                            /** @default [] */
                            missions?: string[];
                            /** @description A level id: only users who have reached it see and advance the mission */
                            minLevel?: string;
                            /** @description Members of any of these groups do not see or advance the mission */
                            excludedGroups?: string[];
                        };
                        /** @default user */
                        party?: "user" | "group";
                        /** @default all */
                        ruleMatch?: "all" | "any";
                        rules: {
                            id: string;
                            /** @description An action name (case-insensitive) */
                            action: string;
                            /** @default count */
                            type?: "count" | "sum";
                            goal: number;
                            /** @default [] */
                            metadata?: {
                                name: string;
                                value: string;
                            }[];
                        }[];
                        /** @default {} */
                        rewards?: {
                            /** @default [] */
                            points?: {
                                category: string;
                                amount: number;
                            }[];
                            multiplier?: number;
                            badge?: string;
                        };
                        repeatableWindow?: {
                            period: "none" | "day" | "week" | "month";
                            maxPerPeriod?: number;
                        };
                        /** @default 0 */
                        importance?: number;
                        /** @description At most this many completions site-wide */
                        supply?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredStartDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredEndDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default not_hidden */
                                hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                /** @default {} */
                                prerequisites: {
                                    /** @default [] */
                                    groups: string[];
                                    /** @default [] */
                                    missions: string[];
                                    /** @description A level id: only users who have reached it see and advance the mission */
                                    minLevel?: string;
                                    /** @description Members of any of these groups do not see or advance the mission */
                                    excludedGroups?: string[];
                                };
                                /** @default user */
                                party: "user" | "group";
                                /** @default all */
                                ruleMatch: "all" | "any";
                                rules: {
                                    id: string;
                                    /** @description An action name (case-insensitive) */
                                    action: string;
                                    /** @default count */
                                    type: "count" | "sum";
                                    goal: number;
                                    /** @default [] */
                                    metadata: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                                /** @default {} */
                                rewards: {
                                    /** @default [] */
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                repeatableWindow?: {
                                    period: "none" | "day" | "week" | "month";
                                    maxPerPeriod?: number;
                                };
                                /** @default 0 */
                                importance: number;
                                /** @description At most this many completions site-wide */
                                supply?: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredStartDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredEndDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default not_hidden */
                                hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                /** @default {} */
                                prerequisites: {
                                    /** @default [] */
                                    groups: string[];
                                    /** @default [] */
                                    missions: string[];
                                    /** @description A level id: only users who have reached it see and advance the mission */
                                    minLevel?: string;
                                    /** @description Members of any of these groups do not see or advance the mission */
                                    excludedGroups?: string[];
                                };
                                /** @default user */
                                party: "user" | "group";
                                /** @default all */
                                ruleMatch: "all" | "any";
                                rules: {
                                    id: string;
                                    /** @description An action name (case-insensitive) */
                                    action: string;
                                    /** @default count */
                                    type: "count" | "sum";
                                    goal: number;
                                    /** @default [] */
                                    metadata: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                                /** @default {} */
                                rewards: {
                                    /** @default [] */
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                repeatableWindow?: {
                                    period: "none" | "day" | "week" | "month";
                                    maxPerPeriod?: number;
                                };
                                /** @default 0 */
                                importance: number;
                                /** @description At most this many completions site-wide */
                                supply?: number;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a mission (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/levels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List levels */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                threshold: number;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a level */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        threshold: number;
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        threshold: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                threshold: number;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/levels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One level */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                threshold: number;
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a level */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        threshold: number;
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        threshold: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                threshold: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                threshold: number;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a level (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/badges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List badges */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a badge */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/badges/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One badge */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a badge */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a badge (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List groups */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                type?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a group */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        type?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name: string;
                        type?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                type?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One group */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                type?: string;
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a group */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        type?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name: string;
                        type?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                type?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                type?: string;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a group (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/leaderboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List leaderboards */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                metric: {
                                    type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                    category?: string;
                                    action?: string;
                                };
                                /** @default allTime */
                                period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                /** @default user */
                                party: "user" | "group";
                                groupFilter?: string;
                                /** @default 100 */
                                size: number;
                                /** @default false */
                                primary: boolean;
                                /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                end?: string;
                                /** @description Paid once to the final standings of each window that closes */
                                prizes?: {
                                    /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                    ranks: string;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a leaderboard */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        metric: {
                            type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                            category?: string;
                            action?: string;
                        };
                        /** @default allTime */
                        period?: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                        /** @default user */
                        party?: "user" | "group";
                        groupFilter?: string;
                        /** @default 100 */
                        size?: number;
                        /** @default false */
                        primary?: boolean;
                        /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                        end?: string;
                        /** @description Paid once to the final standings of each window that closes */
                        prizes?: {
                            /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                            ranks: string;
                            rewards: {
                                /** @default [] */
                                points?: {
                                    category: string;
                                    amount: number;
                                }[];
                                badge?: string;
                            };
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                metric: {
                                    type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                    category?: string;
                                    action?: string;
                                };
                                /** @default allTime */
                                period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                /** @default user */
                                party: "user" | "group";
                                groupFilter?: string;
                                /** @default 100 */
                                size: number;
                                /** @default false */
                                primary: boolean;
                                /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                end?: string;
                                /** @description Paid once to the final standings of each window that closes */
                                prizes?: {
                                    /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                    ranks: string;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/leaderboards/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One leaderboard */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                metric: {
                                    type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                    category?: string;
                                    action?: string;
                                };
                                /** @default allTime */
                                period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                /** @default user */
                                party: "user" | "group";
                                groupFilter?: string;
                                /** @default 100 */
                                size: number;
                                /** @default false */
                                primary: boolean;
                                /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                end?: string;
                                /** @description Paid once to the final standings of each window that closes */
                                prizes?: {
                                    /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                    ranks: string;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a leaderboard */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        metric: {
                            type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                            category?: string;
                            action?: string;
                        };
                        /** @default allTime */
                        period?: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                        /** @default user */
                        party?: "user" | "group";
                        groupFilter?: string;
                        /** @default 100 */
                        size?: number;
                        /** @default false */
                        primary?: boolean;
                        /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                        end?: string;
                        /** @description Paid once to the final standings of each window that closes */
                        prizes?: {
                            /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                            ranks: string;
                            rewards: {
                                /** @default [] */
                                points?: {
                                    category: string;
                                    amount: number;
                                }[];
                                badge?: string;
                            };
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                metric: {
                                    type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                    category?: string;
                                    action?: string;
                                };
                                /** @default allTime */
                                period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                /** @default user */
                                party: "user" | "group";
                                groupFilter?: string;
                                /** @default 100 */
                                size: number;
                                /** @default false */
                                primary: boolean;
                                /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                end?: string;
                                /** @description Paid once to the final standings of each window that closes */
                                prizes?: {
                                    /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                    ranks: string;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                metric: {
                                    type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                    category?: string;
                                    action?: string;
                                };
                                /** @default allTime */
                                period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                /** @default user */
                                party: "user" | "group";
                                groupFilter?: string;
                                /** @default 100 */
                                size: number;
                                /** @default false */
                                primary: boolean;
                                /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                end?: string;
                                /** @description Paid once to the final standings of each window that closes */
                                prizes?: {
                                    /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                    ranks: string;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a leaderboard (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/layouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List layouts */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                uuid: string;
                                name: string;
                                /** @default [] */
                                leaderboards: string[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a layout */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        uuid: string;
                        name: string;
                        /** @default [] */
                        leaderboards?: string[];
                    };
                    "application/x-www-form-urlencoded": {
                        uuid: string;
                        name: string;
                        /** @default [] */
                        leaderboards?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                uuid: string;
                                name: string;
                                /** @default [] */
                                leaderboards: string[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/layouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One layout */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                uuid: string;
                                name: string;
                                /** @default [] */
                                leaderboards: string[];
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a layout */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        uuid: string;
                        name: string;
                        /** @default [] */
                        leaderboards?: string[];
                    };
                    "application/x-www-form-urlencoded": {
                        uuid: string;
                        name: string;
                        /** @default [] */
                        leaderboards?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                uuid: string;
                                name: string;
                                /** @default [] */
                                leaderboards: string[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                uuid: string;
                                name: string;
                                /** @default [] */
                                leaderboards: string[];
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a layout (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/quizzes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List quizzes */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default 100 */
                                passingPercent: number;
                                maxAttempts?: number;
                                questions: {
                                    id: string;
                                    text: string;
                                    /** @default single */
                                    type: "single" | "multiple";
                                    choices: {
                                        id: string;
                                        text: string;
                                        /** @default false */
                                        correct: boolean;
                                    }[];
                                }[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a quiz */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        startDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        endDate?: string;
                        /**
                         * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                         * @default America/Los_Angeles
                         */
                        timezone?: string;
                        /** @default 100 */
                        passingPercent?: number;
                        maxAttempts?: number;
                        questions: {
                            id: string;
                            text: string;
                            /** @default single */
                            type?: "single" | "multiple";
                            choices: {
                                id: string;
                                text: string;
                                /** @default false */
                                correct?: boolean;
                            }[];
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default 100 */
                                passingPercent: number;
                                maxAttempts?: number;
                                questions: {
                                    id: string;
                                    text: string;
                                    /** @default single */
                                    type: "single" | "multiple";
                                    choices: {
                                        id: string;
                                        text: string;
                                        /** @default false */
                                        correct: boolean;
                                    }[];
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/quizzes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One quiz */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default 100 */
                                passingPercent: number;
                                maxAttempts?: number;
                                questions: {
                                    id: string;
                                    text: string;
                                    /** @default single */
                                    type: "single" | "multiple";
                                    choices: {
                                        id: string;
                                        text: string;
                                        /** @default false */
                                        correct: boolean;
                                    }[];
                                }[];
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a quiz */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        startDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        endDate?: string;
                        /**
                         * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                         * @default America/Los_Angeles
                         */
                        timezone?: string;
                        /** @default 100 */
                        passingPercent?: number;
                        maxAttempts?: number;
                        questions: {
                            id: string;
                            text: string;
                            /** @default single */
                            type?: "single" | "multiple";
                            choices: {
                                id: string;
                                text: string;
                                /** @default false */
                                correct?: boolean;
                            }[];
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default 100 */
                                passingPercent: number;
                                maxAttempts?: number;
                                questions: {
                                    id: string;
                                    text: string;
                                    /** @default single */
                                    type: "single" | "multiple";
                                    choices: {
                                        id: string;
                                        text: string;
                                        /** @default false */
                                        correct: boolean;
                                    }[];
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone: string;
                                /** @default 100 */
                                passingPercent: number;
                                maxAttempts?: number;
                                questions: {
                                    id: string;
                                    text: string;
                                    /** @default single */
                                    type: "single" | "multiple";
                                    choices: {
                                        id: string;
                                        text: string;
                                        /** @default false */
                                        correct: boolean;
                                    }[];
                                }[];
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a quiz (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/exchanges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List exchanges */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                timezone?: string;
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                givers: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                recipients: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                pointCategory: string;
                                budget: {
                                    amount: number;
                                    period: "none" | "month" | "quarter" | "year";
                                };
                                /** @default 1 */
                                minPoints: number;
                                maxPoints?: number;
                                /** @default 10 */
                                maxRecipients: number;
                                /** @default [] */
                                categories: {
                                    id: string;
                                    name: string;
                                    iconUrl?: string;
                                }[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a exchange */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        startDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        endDate?: string;
                        /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                        timezone?: string;
                        /**
                         * @description Empty: everyone
                         * @default {}
                         */
                        givers?: {
                            /** @default [] */
                            groups?: string[];
                        };
                        /**
                         * @description Empty: everyone
                         * @default {}
                         */
                        recipients?: {
                            /** @default [] */
                            groups?: string[];
                        };
                        pointCategory: string;
                        budget: {
                            amount: number;
                            period: "none" | "month" | "quarter" | "year";
                        };
                        /** @default 1 */
                        minPoints?: number;
                        maxPoints?: number;
                        /** @default 10 */
                        maxRecipients?: number;
                        /** @default [] */
                        categories?: {
                            id: string;
                            name: string;
                            iconUrl?: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                timezone?: string;
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                givers: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                recipients: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                pointCategory: string;
                                budget: {
                                    amount: number;
                                    period: "none" | "month" | "quarter" | "year";
                                };
                                /** @default 1 */
                                minPoints: number;
                                maxPoints?: number;
                                /** @default 10 */
                                maxRecipients: number;
                                /** @default [] */
                                categories: {
                                    id: string;
                                    name: string;
                                    iconUrl?: string;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/exchanges/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One exchange */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                timezone?: string;
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                givers: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                recipients: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                pointCategory: string;
                                budget: {
                                    amount: number;
                                    period: "none" | "month" | "quarter" | "year";
                                };
                                /** @default 1 */
                                minPoints: number;
                                maxPoints?: number;
                                /** @default 10 */
                                maxRecipients: number;
                                /** @default [] */
                                categories: {
                                    id: string;
                                    name: string;
                                    iconUrl?: string;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a exchange */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        startDate?: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        endDate?: string;
                        /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                        timezone?: string;
                        /**
                         * @description Empty: everyone
                         * @default {}
                         */
                        givers?: {
                            /** @default [] */
                            groups?: string[];
                        };
                        /**
                         * @description Empty: everyone
                         * @default {}
                         */
                        recipients?: {
                            /** @default [] */
                            groups?: string[];
                        };
                        pointCategory: string;
                        budget: {
                            amount: number;
                            period: "none" | "month" | "quarter" | "year";
                        };
                        /** @default 1 */
                        minPoints?: number;
                        maxPoints?: number;
                        /** @default 10 */
                        maxRecipients?: number;
                        /** @default [] */
                        categories?: {
                            id: string;
                            name: string;
                            iconUrl?: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                timezone?: string;
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                givers: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                recipients: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                pointCategory: string;
                                budget: {
                                    amount: number;
                                    period: "none" | "month" | "quarter" | "year";
                                };
                                /** @default 1 */
                                minPoints: number;
                                maxPoints?: number;
                                /** @default 10 */
                                maxRecipients: number;
                                /** @default [] */
                                categories: {
                                    id: string;
                                    name: string;
                                    iconUrl?: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                timezone?: string;
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                givers: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                recipients: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                pointCategory: string;
                                budget: {
                                    amount: number;
                                    period: "none" | "month" | "quarter" | "year";
                                };
                                /** @default 1 */
                                minPoints: number;
                                maxPoints?: number;
                                /** @default 10 */
                                maxRecipients: number;
                                /** @default [] */
                                categories: {
                                    id: string;
                                    name: string;
                                    iconUrl?: string;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a exchange (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/streaks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List streaks */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                action?: string;
                                /** @description A period counts when the user completes this mission in it */
                                mission?: string;
                                /**
                                 * @description Calendar days or weeks (starting Sunday) in the site time zone
                                 * @default day
                                 */
                                period: "day" | "week";
                                /**
                                 * @description A missed period uses a freeze instead of breaking the streak
                                 * @default {}
                                 */
                                freezes: {
                                    /**
                                     * @description Most freezes a user holds
                                     * @default 0
                                     */
                                    max: number;
                                    /**
                                     * @description Freezes a user starts with
                                     * @default 0
                                     */
                                    initial: number;
                                    /** @description One freeze is earned every this many periods in a run */
                                    earnEvery?: number;
                                };
                                /**
                                 * @description Paid once per run when the streak reaches the length
                                 * @default []
                                 */
                                milestones: {
                                    length: number;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a streak */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                        action?: string;
                        /** @description A period counts when the user completes this mission in it */
                        mission?: string;
                        /**
                         * @description Calendar days or weeks (starting Sunday) in the site time zone
                         * @default day
                         */
                        period?: "day" | "week";
                        /**
                         * @description A missed period uses a freeze instead of breaking the streak
                         * @default {}
                         */
                        freezes?: {
                            /**
                             * @description Most freezes a user holds
                             * @default 0
                             */
                            max?: number;
                            /**
                             * @description Freezes a user starts with
                             * @default 0
                             */
                            initial?: number;
                            /** @description One freeze is earned every this many periods in a run */
                            earnEvery?: number;
                        };
                        /**
                         * @description Paid once per run when the streak reaches the length
                         * @default []
                         */
                        milestones?: {
                            length: number;
                            rewards: {
                                /** @default [] */
                                points?: {
                                    category: string;
                                    amount: number;
                                }[];
                                badge?: string;
                            };
                        }[];
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                        action?: string;
                        /** @description A period counts when the user completes this mission in it */
                        mission?: string;
                        /**
                         * @description Calendar days or weeks (starting Sunday) in the site time zone
                         * @default day
                         */
                        period?: "day" | "week";
                        /**
                         * @description A missed period uses a freeze instead of breaking the streak
                         * @default {}
                         */
                        freezes?: {
                            /**
                             * @description Most freezes a user holds
                             * @default 0
                             */
                            max?: number;
                            /**
                             * @description Freezes a user starts with
                             * @default 0
                             */
                            initial?: number;
                            /** @description One freeze is earned every this many periods in a run */
                            earnEvery?: number;
                        };
                        /**
                         * @description Paid once per run when the streak reaches the length
                         * @default []
                         */
                        milestones?: {
                            length: number;
                            rewards: {
                                /** @default [] */
                                points?: {
                                    category: string;
                                    amount: number;
                                }[];
                                badge?: string;
                            };
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                action?: string;
                                /** @description A period counts when the user completes this mission in it */
                                mission?: string;
                                /**
                                 * @description Calendar days or weeks (starting Sunday) in the site time zone
                                 * @default day
                                 */
                                period: "day" | "week";
                                /**
                                 * @description A missed period uses a freeze instead of breaking the streak
                                 * @default {}
                                 */
                                freezes: {
                                    /**
                                     * @description Most freezes a user holds
                                     * @default 0
                                     */
                                    max: number;
                                    /**
                                     * @description Freezes a user starts with
                                     * @default 0
                                     */
                                    initial: number;
                                    /** @description One freeze is earned every this many periods in a run */
                                    earnEvery?: number;
                                };
                                /**
                                 * @description Paid once per run when the streak reaches the length
                                 * @default []
                                 */
                                milestones: {
                                    length: number;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/streaks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One streak */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                action?: string;
                                /** @description A period counts when the user completes this mission in it */
                                mission?: string;
                                /**
                                 * @description Calendar days or weeks (starting Sunday) in the site time zone
                                 * @default day
                                 */
                                period: "day" | "week";
                                /**
                                 * @description A missed period uses a freeze instead of breaking the streak
                                 * @default {}
                                 */
                                freezes: {
                                    /**
                                     * @description Most freezes a user holds
                                     * @default 0
                                     */
                                    max: number;
                                    /**
                                     * @description Freezes a user starts with
                                     * @default 0
                                     */
                                    initial: number;
                                    /** @description One freeze is earned every this many periods in a run */
                                    earnEvery?: number;
                                };
                                /**
                                 * @description Paid once per run when the streak reaches the length
                                 * @default []
                                 */
                                milestones: {
                                    length: number;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a streak */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                        action?: string;
                        /** @description A period counts when the user completes this mission in it */
                        mission?: string;
                        /**
                         * @description Calendar days or weeks (starting Sunday) in the site time zone
                         * @default day
                         */
                        period?: "day" | "week";
                        /**
                         * @description A missed period uses a freeze instead of breaking the streak
                         * @default {}
                         */
                        freezes?: {
                            /**
                             * @description Most freezes a user holds
                             * @default 0
                             */
                            max?: number;
                            /**
                             * @description Freezes a user starts with
                             * @default 0
                             */
                            initial?: number;
                            /** @description One freeze is earned every this many periods in a run */
                            earnEvery?: number;
                        };
                        /**
                         * @description Paid once per run when the streak reaches the length
                         * @default []
                         */
                        milestones?: {
                            length: number;
                            rewards: {
                                /** @default [] */
                                points?: {
                                    category: string;
                                    amount: number;
                                }[];
                                badge?: string;
                            };
                        }[];
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name: string;
                        description?: string;
                        iconUrl?: string;
                        /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                        action?: string;
                        /** @description A period counts when the user completes this mission in it */
                        mission?: string;
                        /**
                         * @description Calendar days or weeks (starting Sunday) in the site time zone
                         * @default day
                         */
                        period?: "day" | "week";
                        /**
                         * @description A missed period uses a freeze instead of breaking the streak
                         * @default {}
                         */
                        freezes?: {
                            /**
                             * @description Most freezes a user holds
                             * @default 0
                             */
                            max?: number;
                            /**
                             * @description Freezes a user starts with
                             * @default 0
                             */
                            initial?: number;
                            /** @description One freeze is earned every this many periods in a run */
                            earnEvery?: number;
                        };
                        /**
                         * @description Paid once per run when the streak reaches the length
                         * @default []
                         */
                        milestones?: {
                            length: number;
                            rewards: {
                                /** @default [] */
                                points?: {
                                    category: string;
                                    amount: number;
                                }[];
                                badge?: string;
                            };
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                action?: string;
                                /** @description A period counts when the user completes this mission in it */
                                mission?: string;
                                /**
                                 * @description Calendar days or weeks (starting Sunday) in the site time zone
                                 * @default day
                                 */
                                period: "day" | "week";
                                /**
                                 * @description A missed period uses a freeze instead of breaking the streak
                                 * @default {}
                                 */
                                freezes: {
                                    /**
                                     * @description Most freezes a user holds
                                     * @default 0
                                     */
                                    max: number;
                                    /**
                                     * @description Freezes a user starts with
                                     * @default 0
                                     */
                                    initial: number;
                                    /** @description One freeze is earned every this many periods in a run */
                                    earnEvery?: number;
                                };
                                /**
                                 * @description Paid once per run when the streak reaches the length
                                 * @default []
                                 */
                                milestones: {
                                    length: number;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                action?: string;
                                /** @description A period counts when the user completes this mission in it */
                                mission?: string;
                                /**
                                 * @description Calendar days or weeks (starting Sunday) in the site time zone
                                 * @default day
                                 */
                                period: "day" | "week";
                                /**
                                 * @description A missed period uses a freeze instead of breaking the streak
                                 * @default {}
                                 */
                                freezes: {
                                    /**
                                     * @description Most freezes a user holds
                                     * @default 0
                                     */
                                    max: number;
                                    /**
                                     * @description Freezes a user starts with
                                     * @default 0
                                     */
                                    initial: number;
                                    /** @description One freeze is earned every this many periods in a run */
                                    earnEvery?: number;
                                };
                                /**
                                 * @description Paid once per run when the streak reaches the length
                                 * @default []
                                 */
                                milestones: {
                                    length: number;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a streak (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/boosts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List boosts */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name?: string;
                                /** @description Point rewards in the window are multiplied by this (rounded down) */
                                multiplier: number;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                start: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                end: string;
                                /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                timezone?: string;
                                /**
                                 * @description Only rewards of missions advanced by these actions; empty: any
                                 * @default []
                                 */
                                actions: string[];
                                /**
                                 * @description Only these missions; empty: any
                                 * @default []
                                 */
                                missions: string[];
                                /**
                                 * @description Only members of these groups; empty: everyone
                                 * @default []
                                 */
                                groups: string[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a boost */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name?: string;
                        /** @description Point rewards in the window are multiplied by this (rounded down) */
                        multiplier: number;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        start: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        end: string;
                        /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                        timezone?: string;
                        /**
                         * @description Only rewards of missions advanced by these actions; empty: any
                         * @default []
                         */
                        actions?: string[];
                        /**
                         * @description Only these missions; empty: any
                         * @default []
                         */
                        missions?: string[];
                        /**
                         * @description Only members of these groups; empty: everyone
                         * @default []
                         */
                        groups?: string[];
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name?: string;
                        /** @description Point rewards in the window are multiplied by this (rounded down) */
                        multiplier: number;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        start: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        end: string;
                        /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                        timezone?: string;
                        /**
                         * @description Only rewards of missions advanced by these actions; empty: any
                         * @default []
                         */
                        actions?: string[];
                        /**
                         * @description Only these missions; empty: any
                         * @default []
                         */
                        missions?: string[];
                        /**
                         * @description Only members of these groups; empty: everyone
                         * @default []
                         */
                        groups?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name?: string;
                                /** @description Point rewards in the window are multiplied by this (rounded down) */
                                multiplier: number;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                start: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                end: string;
                                /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                timezone?: string;
                                /**
                                 * @description Only rewards of missions advanced by these actions; empty: any
                                 * @default []
                                 */
                                actions: string[];
                                /**
                                 * @description Only these missions; empty: any
                                 * @default []
                                 */
                                missions: string[];
                                /**
                                 * @description Only members of these groups; empty: everyone
                                 * @default []
                                 */
                                groups: string[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/boosts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One boost */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name?: string;
                                /** @description Point rewards in the window are multiplied by this (rounded down) */
                                multiplier: number;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                start: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                end: string;
                                /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                timezone?: string;
                                /**
                                 * @description Only rewards of missions advanced by these actions; empty: any
                                 * @default []
                                 */
                                actions: string[];
                                /**
                                 * @description Only these missions; empty: any
                                 * @default []
                                 */
                                missions: string[];
                                /**
                                 * @description Only members of these groups; empty: everyone
                                 * @default []
                                 */
                                groups: string[];
                            };
                        };
                    };
                };
            };
        };
        /** Create or replace a boost */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name?: string;
                        /** @description Point rewards in the window are multiplied by this (rounded down) */
                        multiplier: number;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        start: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        end: string;
                        /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                        timezone?: string;
                        /**
                         * @description Only rewards of missions advanced by these actions; empty: any
                         * @default []
                         */
                        actions?: string[];
                        /**
                         * @description Only these missions; empty: any
                         * @default []
                         */
                        missions?: string[];
                        /**
                         * @description Only members of these groups; empty: everyone
                         * @default []
                         */
                        groups?: string[];
                    };
                    "application/x-www-form-urlencoded": {
                        id: string;
                        name?: string;
                        /** @description Point rewards in the window are multiplied by this (rounded down) */
                        multiplier: number;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        start: string;
                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                        end: string;
                        /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                        timezone?: string;
                        /**
                         * @description Only rewards of missions advanced by these actions; empty: any
                         * @default []
                         */
                        actions?: string[];
                        /**
                         * @description Only these missions; empty: any
                         * @default []
                         */
                        missions?: string[];
                        /**
                         * @description Only members of these groups; empty: everyone
                         * @default []
                         */
                        groups?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name?: string;
                                /** @description Point rewards in the window are multiplied by this (rounded down) */
                                multiplier: number;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                start: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                end: string;
                                /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                timezone?: string;
                                /**
                                 * @description Only rewards of missions advanced by these actions; empty: any
                                 * @default []
                                 */
                                actions: string[];
                                /**
                                 * @description Only these missions; empty: any
                                 * @default []
                                 */
                                missions: string[];
                                /**
                                 * @description Only members of these groups; empty: everyone
                                 * @default []
                                 */
                                groups: string[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name?: string;
                                /** @description Point rewards in the window are multiplied by this (rounded down) */
                                multiplier: number;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                start: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                end: string;
                                /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                timezone?: string;
                                /**
                                 * @description Only rewards of missions advanced by these actions; empty: any
                                 * @default []
                                 */
                                actions: string[];
                                /**
                                 * @description Only these missions; empty: any
                                 * @default []
                                 */
                                missions: string[];
                                /**
                                 * @description Only members of these groups; empty: everyone
                                 * @default []
                                 */
                                groups: string[];
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a boost (refused while others refer to it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/program/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The program versions every change kept, newest first (who, when, what changed) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                version: number;
                                /** Format: date-time */
                                changedAt: string;
                                changedBy: string | null;
                                summary: {
                                    site?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    actions?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    pointCategories?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    missions?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    levels?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    badges?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    groups?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    leaderboards?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    layouts?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    quizzes?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    exchanges?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    streaks?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    boosts?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    awardSettings?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                } | null;
                                restoredFrom: number | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/program/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One kept program version: its document and what it changed against the version kept before it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    version: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                version: number;
                                /** Format: date-time */
                                changedAt: string;
                                changedBy: string | null;
                                summary: {
                                    site?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    actions?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    pointCategories?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    missions?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    levels?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    badges?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    groups?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    leaderboards?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    layouts?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    quizzes?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    exchanges?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    streaks?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    boosts?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    awardSettings?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                } | null;
                                restoredFrom: number | null;
                                previousVersion: number | null;
                                changes: {
                                    /** @description The program key: missions, actions, …, or site, awardSettings */
                                    part: string;
                                    id: string | null;
                                    change: "added" | "removed" | "changed" | "reordered";
                                    /** @description added: the entity */
                                    after?: unknown;
                                    /** @description removed: the entity */
                                    before?: unknown;
                                    /** @description changed: an RFC 6902 JSON Patch from the entity before to the entity after */
                                    patch?: {
                                        op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                        /** @description A JSON Pointer inside the entity */
                                        path: string;
                                        from?: string;
                                        value?: unknown;
                                    }[];
                                    /** @description reordered: the collection's ids in their new order */
                                    order?: string[];
                                }[] | null;
                                document: {
                                    site: {
                                        name: string;
                                        /**
                                         * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                         * @default America/Los_Angeles
                                         */
                                        timezone: string;
                                        /** @default points */
                                        levelType: "points" | "custom";
                                        achievementCallbackUrl?: string;
                                        giftNotifyUrl?: string;
                                        itemPurchaseNotifyUrl?: string;
                                        /** @description Write-only: reads show only its last 4 characters */
                                        webhookSecret?: string;
                                        /** @default [] */
                                        allowedOrigins: string[];
                                        userlinkUrl?: string;
                                        whitelistDisabled?: boolean;
                                        authenticationDisabled?: boolean;
                                        userFilterPrefix?: string;
                                        catalogBuyBackPercent?: number;
                                        ownedItemFeedDescription?: string;
                                        giftItemFeedDescription?: string;
                                        subdomain?: string;
                                        enforceSubdomain?: boolean;
                                        version?: string;
                                    };
                                    pointCategories: {
                                        /** @description The category name, also its id */
                                        name: string;
                                        /** @default false */
                                        isDefault: boolean;
                                        /** @description Most a user earns per calendar day (site time zone) */
                                        dailyLimit?: number;
                                        /** @description Most a user earns per calendar year (site time zone) */
                                        yearlyLimit?: number;
                                        /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                        expiry?: {
                                            /** @description Points expire this many days after they were earned */
                                            afterDays?: number;
                                            /** @description Points earned before this local date-time (site time zone) expire at it */
                                            date?: string;
                                        };
                                    }[];
                                    /** @default [] */
                                    actions: {
                                        /** @description Unique, case-insensitive */
                                        name: string;
                                        description?: string;
                                        rateLimit?: {
                                            max: number;
                                            period: "minute" | "hour" | "day" | "week";
                                        };
                                        /** @default false */
                                        suppressRepeats: boolean;
                                        /** @default false */
                                        clientLoggable: boolean;
                                    }[];
                                    /** @default [] */
                                    badges: {
                                        id: string;
                                        name: string;
                                        description?: string;
                                        iconUrl?: string;
                                    }[];
                                    /** @default [] */
                                    levels: {
                                        id: string;
                                        name: string;
                                        description?: string;
                                        iconUrl?: string;
                                        threshold: number;
                                    }[];
                                    /** @default [] */
                                    groups: {
                                        id: string;
                                        name: string;
                                        type?: string;
                                    }[];
                                    /** @default [] */
                                    missions: {
                                        id: string;
                                        name: string;
                                        description?: string;
                                        iconUrl?: string;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        startDate?: string;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        endDate?: string;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        featuredStartDate?: string;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        featuredEndDate?: string;
                                        /**
                                         * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                         * @default America/Los_Angeles
                                         */
                                        timezone: string;
                                        /** @default not_hidden */
                                        hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                        /** @default {} */
                                        prerequisites: {
                                            /** @default [] */
                                            groups: string[];
                                            /** @default [] */
                                            missions: string[];
                                            /** @description A level id: only users who have reached it see and advance the mission */
                                            minLevel?: string;
                                            /** @description Members of any of these groups do not see or advance the mission */
                                            excludedGroups?: string[];
                                        };
                                        /** @default user */
                                        party: "user" | "group";
                                        /** @default all */
                                        ruleMatch: "all" | "any";
                                        rules: {
                                            id: string;
                                            /** @description An action name (case-insensitive) */
                                            action: string;
                                            /** @default count */
                                            type: "count" | "sum";
                                            goal: number;
                                            /** @default [] */
                                            metadata: {
                                                name: string;
                                                value: string;
                                            }[];
                                        }[];
                                        /** @default {} */
                                        rewards: {
                                            /** @default [] */
                                            points: {
                                                category: string;
                                                amount: number;
                                            }[];
                                            multiplier?: number;
                                            badge?: string;
                                        };
                                        repeatableWindow?: {
                                            period: "none" | "day" | "week" | "month";
                                            maxPerPeriod?: number;
                                        };
                                        /** @default 0 */
                                        importance: number;
                                        /** @description At most this many completions site-wide */
                                        supply?: number;
                                    }[];
                                    /** @default [] */
                                    leaderboards: {
                                        id: string;
                                        name: string;
                                        metric: {
                                            type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                            category?: string;
                                            action?: string;
                                        };
                                        /** @default allTime */
                                        period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                        /** @default user */
                                        party: "user" | "group";
                                        groupFilter?: string;
                                        /** @default 100 */
                                        size: number;
                                        /** @default false */
                                        primary: boolean;
                                        /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                        end?: string;
                                        /** @description Paid once to the final standings of each window that closes */
                                        prizes?: {
                                            /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                            ranks: string;
                                            rewards: {
                                                /** @default [] */
                                                points: {
                                                    category: string;
                                                    amount: number;
                                                }[];
                                                badge?: string;
                                            };
                                        }[];
                                    }[];
                                    /** @default [] */
                                    layouts: {
                                        uuid: string;
                                        name: string;
                                        /** @default [] */
                                        leaderboards: string[];
                                    }[];
                                    /** @default [] */
                                    quizzes: {
                                        id: string;
                                        name: string;
                                        description?: string;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        startDate?: string;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        endDate?: string;
                                        /**
                                         * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                         * @default America/Los_Angeles
                                         */
                                        timezone: string;
                                        /** @default 100 */
                                        passingPercent: number;
                                        maxAttempts?: number;
                                        questions: {
                                            id: string;
                                            text: string;
                                            /** @default single */
                                            type: "single" | "multiple";
                                            choices: {
                                                id: string;
                                                text: string;
                                                /** @default false */
                                                correct: boolean;
                                            }[];
                                        }[];
                                    }[];
                                    /** @default [] */
                                    exchanges: {
                                        id: string;
                                        name: string;
                                        description?: string;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        startDate?: string;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        endDate?: string;
                                        /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                        timezone?: string;
                                        /**
                                         * @description Empty: everyone
                                         * @default {}
                                         */
                                        givers: {
                                            /** @default [] */
                                            groups: string[];
                                        };
                                        /**
                                         * @description Empty: everyone
                                         * @default {}
                                         */
                                        recipients: {
                                            /** @default [] */
                                            groups: string[];
                                        };
                                        pointCategory: string;
                                        budget: {
                                            amount: number;
                                            period: "none" | "month" | "quarter" | "year";
                                        };
                                        /** @default 1 */
                                        minPoints: number;
                                        maxPoints?: number;
                                        /** @default 10 */
                                        maxRecipients: number;
                                        /** @default [] */
                                        categories: {
                                            id: string;
                                            name: string;
                                            iconUrl?: string;
                                        }[];
                                    }[];
                                    streaks?: {
                                        id: string;
                                        name: string;
                                        description?: string;
                                        iconUrl?: string;
                                        /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                        action?: string;
                                        /** @description A period counts when the user completes this mission in it */
                                        mission?: string;
                                        /**
                                         * @description Calendar days or weeks (starting Sunday) in the site time zone
                                         * @default day
                                         */
                                        period: "day" | "week";
                                        /**
                                         * @description A missed period uses a freeze instead of breaking the streak
                                         * @default {}
                                         */
                                        freezes: {
                                            /**
                                             * @description Most freezes a user holds
                                             * @default 0
                                             */
                                            max: number;
                                            /**
                                             * @description Freezes a user starts with
                                             * @default 0
                                             */
                                            initial: number;
                                            /** @description One freeze is earned every this many periods in a run */
                                            earnEvery?: number;
                                        };
                                        /**
                                         * @description Paid once per run when the streak reaches the length
                                         * @default []
                                         */
                                        milestones: {
                                            length: number;
                                            rewards: {
                                                /** @default [] */
                                                points: {
                                                    category: string;
                                                    amount: number;
                                                }[];
                                                badge?: string;
                                            };
                                        }[];
                                    }[];
                                    boosts?: {
                                        id: string;
                                        name?: string;
                                        /** @description Point rewards in the window are multiplied by this (rounded down) */
                                        multiplier: number;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        start: string;
                                        /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                        end: string;
                                        /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                        timezone?: string;
                                        /**
                                         * @description Only rewards of missions advanced by these actions; empty: any
                                         * @default []
                                         */
                                        actions: string[];
                                        /**
                                         * @description Only these missions; empty: any
                                         * @default []
                                         */
                                        missions: string[];
                                        /**
                                         * @description Only members of these groups; empty: everyone
                                         * @default []
                                         */
                                        groups: string[];
                                    }[];
                                    awardSettings?: {
                                        pointCategory: string;
                                        currency: string;
                                        conversionRate: number;
                                        /** @default [] */
                                        marketplaces: {
                                            type: string;
                                            urlTemplate: string;
                                        }[];
                                        /** @default [] */
                                        allowedCountries: string[];
                                        /** @default false */
                                        verificationRequired: boolean;
                                        /**
                                         * @description Days a credit from points stays pending before it can be spent
                                         * @default 0
                                         */
                                        holdDays: number;
                                    };
                                };
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/program/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make a kept version's document the program again (validated as PUT /admin/program; writes a new version) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    version: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                site: {
                                    name: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default points */
                                    levelType: "points" | "custom";
                                    achievementCallbackUrl?: string;
                                    giftNotifyUrl?: string;
                                    itemPurchaseNotifyUrl?: string;
                                    /** @description Write-only: reads show only its last 4 characters */
                                    webhookSecret?: string;
                                    /** @default [] */
                                    allowedOrigins: string[];
                                    userlinkUrl?: string;
                                    whitelistDisabled?: boolean;
                                    authenticationDisabled?: boolean;
                                    userFilterPrefix?: string;
                                    catalogBuyBackPercent?: number;
                                    ownedItemFeedDescription?: string;
                                    giftItemFeedDescription?: string;
                                    subdomain?: string;
                                    enforceSubdomain?: boolean;
                                    version?: string;
                                };
                                pointCategories: {
                                    /** @description The category name, also its id */
                                    name: string;
                                    /** @default false */
                                    isDefault: boolean;
                                    /** @description Most a user earns per calendar day (site time zone) */
                                    dailyLimit?: number;
                                    /** @description Most a user earns per calendar year (site time zone) */
                                    yearlyLimit?: number;
                                    /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                    expiry?: {
                                        /** @description Points expire this many days after they were earned */
                                        afterDays?: number;
                                        /** @description Points earned before this local date-time (site time zone) expire at it */
                                        date?: string;
                                    };
                                }[];
                                /** @default [] */
                                actions: {
                                    /** @description Unique, case-insensitive */
                                    name: string;
                                    description?: string;
                                    rateLimit?: {
                                        max: number;
                                        period: "minute" | "hour" | "day" | "week";
                                    };
                                    /** @default false */
                                    suppressRepeats: boolean;
                                    /** @default false */
                                    clientLoggable: boolean;
                                }[];
                                /** @default [] */
                                badges: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                }[];
                                /** @default [] */
                                levels: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    threshold: number;
                                }[];
                                /** @default [] */
                                groups: {
                                    id: string;
                                    name: string;
                                    type?: string;
                                }[];
                                /** @default [] */
                                missions: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    featuredStartDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    featuredEndDate?: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default not_hidden */
                                    hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                    /** @default {} */
                                    prerequisites: {
                                        /** @default [] */
                                        groups: string[];
                                        /** @default [] */
                                        missions: string[];
                                        /** @description A level id: only users who have reached it see and advance the mission */
                                        minLevel?: string;
                                        /** @description Members of any of these groups do not see or advance the mission */
                                        excludedGroups?: string[];
                                    };
                                    /** @default user */
                                    party: "user" | "group";
                                    /** @default all */
                                    ruleMatch: "all" | "any";
                                    rules: {
                                        id: string;
                                        /** @description An action name (case-insensitive) */
                                        action: string;
                                        /** @default count */
                                        type: "count" | "sum";
                                        goal: number;
                                        /** @default [] */
                                        metadata: {
                                            name: string;
                                            value: string;
                                        }[];
                                    }[];
                                    /** @default {} */
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        multiplier?: number;
                                        badge?: string;
                                    };
                                    repeatableWindow?: {
                                        period: "none" | "day" | "week" | "month";
                                        maxPerPeriod?: number;
                                    };
                                    /** @default 0 */
                                    importance: number;
                                    /** @description At most this many completions site-wide */
                                    supply?: number;
                                }[];
                                /** @default [] */
                                leaderboards: {
                                    id: string;
                                    name: string;
                                    metric: {
                                        type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                        category?: string;
                                        action?: string;
                                    };
                                    /** @default allTime */
                                    period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                    /** @default user */
                                    party: "user" | "group";
                                    groupFilter?: string;
                                    /** @default 100 */
                                    size: number;
                                    /** @default false */
                                    primary: boolean;
                                    /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                    end?: string;
                                    /** @description Paid once to the final standings of each window that closes */
                                    prizes?: {
                                        /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                        ranks: string;
                                        rewards: {
                                            /** @default [] */
                                            points: {
                                                category: string;
                                                amount: number;
                                            }[];
                                            badge?: string;
                                        };
                                    }[];
                                }[];
                                /** @default [] */
                                layouts: {
                                    uuid: string;
                                    name: string;
                                    /** @default [] */
                                    leaderboards: string[];
                                }[];
                                /** @default [] */
                                quizzes: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default 100 */
                                    passingPercent: number;
                                    maxAttempts?: number;
                                    questions: {
                                        id: string;
                                        text: string;
                                        /** @default single */
                                        type: "single" | "multiple";
                                        choices: {
                                            id: string;
                                            text: string;
                                            /** @default false */
                                            correct: boolean;
                                        }[];
                                    }[];
                                }[];
                                /** @default [] */
                                exchanges: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                    timezone?: string;
                                    /**
                                     * @description Empty: everyone
                                     * @default {}
                                     */
                                    givers: {
                                        /** @default [] */
                                        groups: string[];
                                    };
                                    /**
                                     * @description Empty: everyone
                                     * @default {}
                                     */
                                    recipients: {
                                        /** @default [] */
                                        groups: string[];
                                    };
                                    pointCategory: string;
                                    budget: {
                                        amount: number;
                                        period: "none" | "month" | "quarter" | "year";
                                    };
                                    /** @default 1 */
                                    minPoints: number;
                                    maxPoints?: number;
                                    /** @default 10 */
                                    maxRecipients: number;
                                    /** @default [] */
                                    categories: {
                                        id: string;
                                        name: string;
                                        iconUrl?: string;
                                    }[];
                                }[];
                                streaks?: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                    action?: string;
                                    /** @description A period counts when the user completes this mission in it */
                                    mission?: string;
                                    /**
                                     * @description Calendar days or weeks (starting Sunday) in the site time zone
                                     * @default day
                                     */
                                    period: "day" | "week";
                                    /**
                                     * @description A missed period uses a freeze instead of breaking the streak
                                     * @default {}
                                     */
                                    freezes: {
                                        /**
                                         * @description Most freezes a user holds
                                         * @default 0
                                         */
                                        max: number;
                                        /**
                                         * @description Freezes a user starts with
                                         * @default 0
                                         */
                                        initial: number;
                                        /** @description One freeze is earned every this many periods in a run */
                                        earnEvery?: number;
                                    };
                                    /**
                                     * @description Paid once per run when the streak reaches the length
                                     * @default []
                                     */
                                    milestones: {
                                        length: number;
                                        rewards: {
                                            /** @default [] */
                                            points: {
                                                category: string;
                                                amount: number;
                                            }[];
                                            badge?: string;
                                        };
                                    }[];
                                }[];
                                boosts?: {
                                    id: string;
                                    name?: string;
                                    /** @description Point rewards in the window are multiplied by this (rounded down) */
                                    multiplier: number;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    start: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    end: string;
                                    /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                    timezone?: string;
                                    /**
                                     * @description Only rewards of missions advanced by these actions; empty: any
                                     * @default []
                                     */
                                    actions: string[];
                                    /**
                                     * @description Only these missions; empty: any
                                     * @default []
                                     */
                                    missions: string[];
                                    /**
                                     * @description Only members of these groups; empty: everyone
                                     * @default []
                                     */
                                    groups: string[];
                                }[];
                                awardSettings?: {
                                    pointCategory: string;
                                    currency: string;
                                    conversionRate: number;
                                    /** @default [] */
                                    marketplaces: {
                                        type: string;
                                        urlTemplate: string;
                                    }[];
                                    /** @default [] */
                                    allowedCountries: string[];
                                    /** @default false */
                                    verificationRequired: boolean;
                                    /**
                                     * @description Days a credit from points stays pending before it can be spent
                                     * @default 0
                                     */
                                    holdDays: number;
                                };
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/program/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What PUT /admin/program with this body would do, saving nothing (the same validation errors) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        site: {
                            name: string;
                            /**
                             * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                             * @default America/Los_Angeles
                             */
                            timezone?: string;
                            /** @default points */
                            levelType?: "points" | "custom";
                            achievementCallbackUrl?: string;
                            giftNotifyUrl?: string;
                            itemPurchaseNotifyUrl?: string;
                            /** @description Write-only: reads show only its last 4 characters */
                            webhookSecret?: string;
                            /** @default [] */
                            allowedOrigins?: string[];
                            userlinkUrl?: string;
                            whitelistDisabled?: boolean;
                            authenticationDisabled?: boolean;
                            userFilterPrefix?: string;
                            catalogBuyBackPercent?: number;
                            ownedItemFeedDescription?: string;
                            giftItemFeedDescription?: string;
                            subdomain?: string;
                            enforceSubdomain?: boolean;
                            version?: string;
                        };
                        pointCategories: {
                            /** @description The category name, also its id */
                            name: string;
                            /** @default false */
                            isDefault?: boolean;
                            /** @description Most a user earns per calendar day (site time zone) */
                            dailyLimit?: number;
                            /** @description Most a user earns per calendar year (site time zone) */
                            yearlyLimit?: number;
                            /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                            expiry?: {
                                /** @description Points expire this many days after they were earned */
                                afterDays?: number;
                                /** @description Points earned before this local date-time (site time zone) expire at it */
                                date?: string;
                            };
                        }[];
                        /** @default [] */
                        actions?: {
                            /** @description Unique, case-insensitive */
                            name: string;
                            description?: string;
                            rateLimit?: {
                                max: number;
                                period: "minute" | "hour" | "day" | "week";
                            };
                            /** @default false */
                            suppressRepeats?: boolean;
                            /** @default false */
                            clientLoggable?: boolean;
                        }[];
                        /** @default [] */
                        badges?: {
                            id: string;
                            name: string;
                            description?: string;
                            iconUrl?: string;
                        }[];
                        /** @default [] */
                        levels?: {
                            id: string;
                            name: string;
                            description?: string;
                            iconUrl?: string;
                            threshold: number;
                        }[];
                        /** @default [] */
                        groups?: {
                            id: string;
                            name: string;
                            type?: string;
                        }[];
                        /** @default [] */
                        missions?: {
                            id: string;
                            name: string;
                            description?: string;
                            iconUrl?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            startDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            endDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            featuredStartDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            featuredEndDate?: string;
                            /**
                             * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                             * @default America/Los_Angeles
                             */
                            timezone?: string;
                            /** @default not_hidden */
                            hidden?: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                            /** @default {} */
                            prerequisites?: {
                                /** @default [] */
                                groups?: string[];
                                /** @default [] */
                                missions?: string[];
                                /** @description A level id: only users who have reached it see and advance the mission */
                                minLevel?: string;
                                /** @description Members of any of these groups do not see or advance the mission */
                                excludedGroups?: string[];
                            };
                            /** @default user */
                            party?: "user" | "group";
                            /** @default all */
                            ruleMatch?: "all" | "any";
                            rules: {
                                id: string;
                                /** @description An action name (case-insensitive) */
                                action: string;
                                /** @default count */
                                type?: "count" | "sum";
                                goal: number;
                                /** @default [] */
                                metadata?: {
                                    name: string;
                                    value: string;
                                }[];
                            }[];
                            /** @default {} */
                            rewards?: {
                                /** @default [] */
                                points?: {
                                    category: string;
                                    amount: number;
                                }[];
                                multiplier?: number;
                                badge?: string;
                            };
                            repeatableWindow?: {
                                period: "none" | "day" | "week" | "month";
                                maxPerPeriod?: number;
                            };
                            /** @default 0 */
                            importance?: number;
                            /** @description At most this many completions site-wide */
                            supply?: number;
                        }[];
                        /** @default [] */
                        leaderboards?: {
                            id: string;
                            name: string;
                            metric: {
                                type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                category?: string;
                                action?: string;
                            };
                            /** @default allTime */
                            period?: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                            /** @default user */
                            party?: "user" | "group";
                            groupFilter?: string;
                            /** @default 100 */
                            size?: number;
                            /** @default false */
                            primary?: boolean;
                            /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                            end?: string;
                            /** @description Paid once to the final standings of each window that closes */
                            prizes?: {
                                /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                ranks: string;
                                rewards: {
                                    /** @default [] */
                                    points?: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    badge?: string;
                                };
                            }[];
                        }[];
                        /** @default [] */
                        layouts?: {
                            uuid: string;
                            name: string;
                            /** @default [] */
                            leaderboards?: string[];
                        }[];
                        /** @default [] */
                        quizzes?: {
                            id: string;
                            name: string;
                            description?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            startDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            endDate?: string;
                            /**
                             * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                             * @default America/Los_Angeles
                             */
                            timezone?: string;
                            /** @default 100 */
                            passingPercent?: number;
                            maxAttempts?: number;
                            questions: {
                                id: string;
                                text: string;
                                /** @default single */
                                type?: "single" | "multiple";
                                choices: {
                                    id: string;
                                    text: string;
                                    /** @default false */
                                    correct?: boolean;
                                }[];
                            }[];
                        }[];
                        /** @default [] */
                        exchanges?: {
                            id: string;
                            name: string;
                            description?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            startDate?: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            endDate?: string;
                            /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                            timezone?: string;
                            /**
                             * @description Empty: everyone
                             * @default {}
                             */
                            givers?: {
                                /** @default [] */
                                groups?: string[];
                            };
                            /**
                             * @description Empty: everyone
                             * @default {}
                             */
                            recipients?: {
                                /** @default [] */
                                groups?: string[];
                            };
                            pointCategory: string;
                            budget: {
                                amount: number;
                                period: "none" | "month" | "quarter" | "year";
                            };
                            /** @default 1 */
                            minPoints?: number;
                            maxPoints?: number;
                            /** @default 10 */
                            maxRecipients?: number;
                            /** @default [] */
                            categories?: {
                                id: string;
                                name: string;
                                iconUrl?: string;
                            }[];
                        }[];
                        streaks?: {
                            id: string;
                            name: string;
                            description?: string;
                            iconUrl?: string;
                            /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                            action?: string;
                            /** @description A period counts when the user completes this mission in it */
                            mission?: string;
                            /**
                             * @description Calendar days or weeks (starting Sunday) in the site time zone
                             * @default day
                             */
                            period?: "day" | "week";
                            /**
                             * @description A missed period uses a freeze instead of breaking the streak
                             * @default {}
                             */
                            freezes?: {
                                /**
                                 * @description Most freezes a user holds
                                 * @default 0
                                 */
                                max?: number;
                                /**
                                 * @description Freezes a user starts with
                                 * @default 0
                                 */
                                initial?: number;
                                /** @description One freeze is earned every this many periods in a run */
                                earnEvery?: number;
                            };
                            /**
                             * @description Paid once per run when the streak reaches the length
                             * @default []
                             */
                            milestones?: {
                                length: number;
                                rewards: {
                                    /** @default [] */
                                    points?: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    badge?: string;
                                };
                            }[];
                        }[];
                        boosts?: {
                            id: string;
                            name?: string;
                            /** @description Point rewards in the window are multiplied by this (rounded down) */
                            multiplier: number;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            start: string;
                            /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                            end: string;
                            /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                            timezone?: string;
                            /**
                             * @description Only rewards of missions advanced by these actions; empty: any
                             * @default []
                             */
                            actions?: string[];
                            /**
                             * @description Only these missions; empty: any
                             * @default []
                             */
                            missions?: string[];
                            /**
                             * @description Only members of these groups; empty: everyone
                             * @default []
                             */
                            groups?: string[];
                        }[];
                        awardSettings?: {
                            pointCategory: string;
                            currency: string;
                            conversionRate: number;
                            /** @default [] */
                            marketplaces?: {
                                type: string;
                                urlTemplate: string;
                            }[];
                            /** @default [] */
                            allowedCountries?: string[];
                            /** @default false */
                            verificationRequired?: boolean;
                            /**
                             * @description Days a credit from points stays pending before it can be spent
                             * @default 0
                             */
                            holdDays?: number;
                        };
                    } | {
                        response: {
                            site: {
                                name: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone?: string;
                                /** @default points */
                                levelType?: "points" | "custom";
                                achievementCallbackUrl?: string;
                                giftNotifyUrl?: string;
                                itemPurchaseNotifyUrl?: string;
                                /** @description Write-only: reads show only its last 4 characters */
                                webhookSecret?: string;
                                /** @default [] */
                                allowedOrigins?: string[];
                                userlinkUrl?: string;
                                whitelistDisabled?: boolean;
                                authenticationDisabled?: boolean;
                                userFilterPrefix?: string;
                                catalogBuyBackPercent?: number;
                                ownedItemFeedDescription?: string;
                                giftItemFeedDescription?: string;
                                subdomain?: string;
                                enforceSubdomain?: boolean;
                                version?: string;
                            };
                            pointCategories: {
                                /** @description The category name, also its id */
                                name: string;
                                /** @default false */
                                isDefault?: boolean;
                                /** @description Most a user earns per calendar day (site time zone) */
                                dailyLimit?: number;
                                /** @description Most a user earns per calendar year (site time zone) */
                                yearlyLimit?: number;
                                /** @description Exactly one of afterDays and date. Oldest points are spent and expire first */
                                expiry?: {
                                    /** @description Points expire this many days after they were earned */
                                    afterDays?: number;
                                    /** @description Points earned before this local date-time (site time zone) expire at it */
                                    date?: string;
                                };
                            }[];
                            /** @default [] */
                            actions?: {
                                /** @description Unique, case-insensitive */
                                name: string;
                                description?: string;
                                rateLimit?: {
                                    max: number;
                                    period: "minute" | "hour" | "day" | "week";
                                };
                                /** @default false */
                                suppressRepeats?: boolean;
                                /** @default false */
                                clientLoggable?: boolean;
                            }[];
                            /** @default [] */
                            badges?: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                            }[];
                            /** @default [] */
                            levels?: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                threshold: number;
                            }[];
                            /** @default [] */
                            groups?: {
                                id: string;
                                name: string;
                                type?: string;
                            }[];
                            /** @default [] */
                            missions?: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredStartDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                featuredEndDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone?: string;
                                /** @default not_hidden */
                                hidden?: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                /** @default {} */
                                prerequisites?: {
                                    /** @default [] */
                                    groups?: string[];
                                    /** @default [] */
                                    missions?: string[];
                                    /** @description A level id: only users who have reached it see and advance the mission */
                                    minLevel?: string;
                                    /** @description Members of any of these groups do not see or advance the mission */
                                    excludedGroups?: string[];
                                };
                                /** @default user */
                                party?: "user" | "group";
                                /** @default all */
                                ruleMatch?: "all" | "any";
                                rules: {
                                    id: string;
                                    /** @description An action name (case-insensitive) */
                                    action: string;
                                    /** @default count */
                                    type?: "count" | "sum";
                                    goal: number;
                                    /** @default [] */
                                    metadata?: {
                                        name: string;
                                        value: string;
                                    }[];
                                }[];
                                /** @default {} */
                                rewards?: {
                                    /** @default [] */
                                    points?: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                repeatableWindow?: {
                                    period: "none" | "day" | "week" | "month";
                                    maxPerPeriod?: number;
                                };
                                /** @default 0 */
                                importance?: number;
                                /** @description At most this many completions site-wide */
                                supply?: number;
                            }[];
                            /** @default [] */
                            leaderboards?: {
                                id: string;
                                name: string;
                                metric: {
                                    type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                    category?: string;
                                    action?: string;
                                };
                                /** @default allTime */
                                period?: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                /** @default user */
                                party?: "user" | "group";
                                groupFilter?: string;
                                /** @default 100 */
                                size?: number;
                                /** @default false */
                                primary?: boolean;
                                /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                end?: string;
                                /** @description Paid once to the final standings of each window that closes */
                                prizes?: {
                                    /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                    ranks: string;
                                    rewards: {
                                        /** @default [] */
                                        points?: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            }[];
                            /** @default [] */
                            layouts?: {
                                uuid: string;
                                name: string;
                                /** @default [] */
                                leaderboards?: string[];
                            }[];
                            /** @default [] */
                            quizzes?: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /**
                                 * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                 * @default America/Los_Angeles
                                 */
                                timezone?: string;
                                /** @default 100 */
                                passingPercent?: number;
                                maxAttempts?: number;
                                questions: {
                                    id: string;
                                    text: string;
                                    /** @default single */
                                    type?: "single" | "multiple";
                                    choices: {
                                        id: string;
                                        text: string;
                                        /** @default false */
                                        correct?: boolean;
                                    }[];
                                }[];
                            }[];
                            /** @default [] */
                            exchanges?: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone */
                                timezone?: string;
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                givers?: {
                                    /** @default [] */
                                    groups?: string[];
                                };
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                recipients?: {
                                    /** @default [] */
                                    groups?: string[];
                                };
                                pointCategory: string;
                                budget: {
                                    amount: number;
                                    period: "none" | "month" | "quarter" | "year";
                                };
                                /** @default 1 */
                                minPoints?: number;
                                maxPoints?: number;
                                /** @default 10 */
                                maxRecipients?: number;
                                /** @default [] */
                                categories?: {
                                    id: string;
                                    name: string;
                                    iconUrl?: string;
                                }[];
                            }[];
                            streaks?: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description A period counts when the user logs this action in it (exactly one of action and mission) */
                                action?: string;
                                /** @description A period counts when the user completes this mission in it */
                                mission?: string;
                                /**
                                 * @description Calendar days or weeks (starting Sunday) in the site time zone
                                 * @default day
                                 */
                                period?: "day" | "week";
                                /**
                                 * @description A missed period uses a freeze instead of breaking the streak
                                 * @default {}
                                 */
                                freezes?: {
                                    /**
                                     * @description Most freezes a user holds
                                     * @default 0
                                     */
                                    max?: number;
                                    /**
                                     * @description Freezes a user starts with
                                     * @default 0
                                     */
                                    initial?: number;
                                    /** @description One freeze is earned every this many periods in a run */
                                    earnEvery?: number;
                                };
                                /**
                                 * @description Paid once per run when the streak reaches the length
                                 * @default []
                                 */
                                milestones?: {
                                    length: number;
                                    rewards: {
                                        /** @default [] */
                                        points?: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            }[];
                            boosts?: {
                                id: string;
                                name?: string;
                                /** @description Point rewards in the window are multiplied by this (rounded down) */
                                multiplier: number;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                start: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                end: string;
                                /** @description The zone of start and end; the site time zone when absent; a Windows zone name is accepted */
                                timezone?: string;
                                /**
                                 * @description Only rewards of missions advanced by these actions; empty: any
                                 * @default []
                                 */
                                actions?: string[];
                                /**
                                 * @description Only these missions; empty: any
                                 * @default []
                                 */
                                missions?: string[];
                                /**
                                 * @description Only members of these groups; empty: everyone
                                 * @default []
                                 */
                                groups?: string[];
                            }[];
                            awardSettings?: {
                                pointCategory: string;
                                currency: string;
                                conversionRate: number;
                                /** @default [] */
                                marketplaces?: {
                                    type: string;
                                    urlTemplate: string;
                                }[];
                                /** @default [] */
                                allowedCountries?: string[];
                                /** @default false */
                                verificationRequired?: boolean;
                                /**
                                 * @description Days a credit from points stays pending before it can be spent
                                 * @default 0
                                 */
                                holdDays?: number;
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The version saving it would write (unless something else changes the program first) */
                                version: number;
                                currentVersion: number;
                                /** @description Per part of the program that changed (a collection, or site and awardSettings, which count as one entity), what its entities did */
                                summary: {
                                    site?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    actions?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    pointCategories?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    missions?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    levels?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    badges?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    groups?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    leaderboards?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    layouts?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    quizzes?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    exchanges?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    streaks?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    boosts?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    awardSettings?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                };
                                changes: {
                                    /** @description The program key: missions, actions, …, or site, awardSettings */
                                    part: string;
                                    id: string | null;
                                    change: "added" | "removed" | "changed" | "reordered";
                                    /** @description added: the entity */
                                    after?: unknown;
                                    /** @description removed: the entity */
                                    before?: unknown;
                                    /** @description changed: an RFC 6902 JSON Patch from the entity before to the entity after */
                                    patch?: {
                                        op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                        /** @description A JSON Pointer inside the entity */
                                        path: string;
                                        from?: string;
                                        value?: unknown;
                                    }[];
                                    /** @description reordered: the collection's ids in their new order */
                                    order?: string[];
                                }[];
                                progressReset: {
                                    /** @description Users and groups whose progress would be archived */
                                    parties: number;
                                    /** @description Progress rows that would be archived */
                                    rows: number;
                                    missions: {
                                        missionId: string;
                                        name: string;
                                        missionRemoved: boolean;
                                        /** @description Its rules the change removes: progress on them resets */
                                        ruleIds: string[];
                                        parties: number;
                                        rows: number;
                                    }[];
                                };
                                siteChanges: {
                                    /** @description The site setting, as named in the program (site.<field>) and the backup (SiteConfiguration/@<field>) */
                                    field: string;
                                    /** @description null: not set */
                                    from: string | number | boolean | string[] | null;
                                    /** @description null: not set */
                                    to: string | number | boolean | string[] | null;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/groups/{groupId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A group's members, by user id */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path: {
                    groupId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                groupId: string;
                                userId: string;
                                /** Format: date-time */
                                joinedAt: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/groups/{groupId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Add a user to a group (idempotent) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    groupId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                groupId: string;
                                userId: string;
                                /** Format: date-time */
                                joinedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                groupId: string;
                                userId: string;
                                /** Format: date-time */
                                joinedAt: string;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove a user from a group */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    groupId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/backup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Stored backups, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Store a backup of the site's configuration (the program; no user data, no secrets) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/backup/{backupId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One backup as its XML document */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    backupId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The backup XML */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/xml": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore a site configuration backup (validated completely, applied in one transaction) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /** @description 0 = restore by backup id; 1 = restore by XML in data */
                        type: string;
                        /** @description A backup id (type 0) or a backup XML document (type 1) */
                        data: string;
                        /** @description Echoed back in the response */
                        asyncToken?: string;
                    };
                    "application/json": {
                        /** @description 0 = restore by backup id; 1 = restore by XML in data */
                        type: string;
                        /** @description A backup id (type 0) or a backup XML document (type 1) */
                        data: string;
                        /** @description Echoed back in the response */
                        asyncToken?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                asyncToken?: string;
                                /** @enum {string} */
                                status: "restored";
                                /** @description The program version after the restore */
                                version: number;
                                missions: number;
                                actions: number;
                                /** @description Users and groups whose progress on rules the restored program no longer has was archived */
                                progressArchived: {
                                    parties: number;
                                    rows: number;
                                };
                                /** @description The site's settings the restore changed (its name and time zone among them when the backup is another site's), in the order of the program's site settings; empty when none did */
                                siteChanges: {
                                    /** @description The site setting, as named in the program (site.<field>) and the backup (SiteConfiguration/@<field>) */
                                    field: string;
                                    /** @description null: not set */
                                    from: string | number | boolean | string[] | null;
                                    /** @description null: not set */
                                    to: string | number | boolean | string[] | null;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/restore/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What POST /restore with this body would do, restoring nothing (the same errors; the preview POST /admin/program/preview answers) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /** @description 0 = restore by backup id; 1 = restore by XML in data */
                        type: string;
                        /** @description A backup id (type 0) or a backup XML document (type 1) */
                        data: string;
                    };
                    "application/json": {
                        /** @description 0 = restore by backup id; 1 = restore by XML in data */
                        type: string;
                        /** @description A backup id (type 0) or a backup XML document (type 1) */
                        data: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The version saving it would write (unless something else changes the program first) */
                                version: number;
                                currentVersion: number;
                                /** @description Per part of the program that changed (a collection, or site and awardSettings, which count as one entity), what its entities did */
                                summary: {
                                    site?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    actions?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    pointCategories?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    missions?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    levels?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    badges?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    groups?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    leaderboards?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    layouts?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    quizzes?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    exchanges?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    streaks?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    boosts?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                    awardSettings?: {
                                        added: number;
                                        changed: number;
                                        removed: number;
                                        /** @description The kept entities are in another order (lists answer the program order) */
                                        reordered: boolean;
                                    };
                                };
                                changes: {
                                    /** @description The program key: missions, actions, …, or site, awardSettings */
                                    part: string;
                                    id: string | null;
                                    change: "added" | "removed" | "changed" | "reordered";
                                    /** @description added: the entity */
                                    after?: unknown;
                                    /** @description removed: the entity */
                                    before?: unknown;
                                    /** @description changed: an RFC 6902 JSON Patch from the entity before to the entity after */
                                    patch?: {
                                        op: "add" | "remove" | "replace" | "move" | "copy" | "test";
                                        /** @description A JSON Pointer inside the entity */
                                        path: string;
                                        from?: string;
                                        value?: unknown;
                                    }[];
                                    /** @description reordered: the collection's ids in their new order */
                                    order?: string[];
                                }[];
                                progressReset: {
                                    /** @description Users and groups whose progress would be archived */
                                    parties: number;
                                    /** @description Progress rows that would be archived */
                                    rows: number;
                                    missions: {
                                        missionId: string;
                                        name: string;
                                        missionRemoved: boolean;
                                        /** @description Its rules the change removes: progress on them resets */
                                        ruleIds: string[];
                                        parties: number;
                                        rows: number;
                                    }[];
                                };
                                siteChanges: {
                                    /** @description The site setting, as named in the program (site.<field>) and the backup (SiteConfiguration/@<field>) */
                                    field: string;
                                    /** @description null: not set */
                                    from: string | number | boolean | string[] | null;
                                    /** @description null: not set */
                                    to: string | number | boolean | string[] | null;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/maintenance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site's maintenance switch */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                enabled: boolean;
                                /** @description The Retry-After of the 503 answers */
                                retryAfterSeconds: number;
                                message: string | null;
                                since: string | null;
                            };
                        };
                    };
                };
            };
        };
        /** Turn maintenance on or off: while on, every call but an admin client's answers 503 with Retry-After */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        enabled: boolean;
                        /** @default 60 */
                        retryAfterSeconds?: number;
                        message?: string | null;
                    };
                    "application/x-www-form-urlencoded": {
                        enabled: boolean;
                        /** @default 60 */
                        retryAfterSeconds?: number;
                        message?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                enabled: boolean;
                                /** @description The Retry-After of the 503 answers */
                                retryAfterSeconds: number;
                                message: string | null;
                                since: string | null;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's recorded actions, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Inclusive lower bound (ISO 8601 or epoch) */
                    from?: string;
                    /** @description Exclusive upper bound (ISO 8601 or epoch) */
                    to?: string;
                    action?: string;
                    limit?: number;
                    /** @description From the X-Next-Cursor header of the previous page */
                    cursor?: string;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                eventId: string;
                                userId?: string;
                                groupId?: string;
                                action: string;
                                value: number;
                                metadata: {
                                    [key: string]: string;
                                };
                                /** Format: date-time */
                                timestamp: string;
                                /** Format: date-time */
                                receivedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Present when an admin reversed the action (its effects were taken back)
                                 */
                                reversedAt?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Log a user's action: missions, points, badges and levels follow (201; 200 for a repeated eventId) */
        post: {
            parameters: {
                query?: {
                    /** @description Return the decision without writing anything */
                    dryRun?: boolean;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The configured action name (case-insensitive) */
                        action: string;
                        /** @description Default 1; feeds sum rules and the points multiplier */
                        value?: number;
                        /** @description At most 10 name/value pairs */
                        metadata?: string | {
                            [key: string]: string | number | boolean;
                        };
                        /** @description Idempotency key, unique per site; generated (UUIDv7) when absent */
                        eventId?: string;
                        /** @description ISO 8601 (an offset, or none: site time zone) or Unix epoch seconds/milliseconds; default now */
                        timestamp?: string | number;
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description The configured action name (case-insensitive) */
                        action: string;
                        /** @description Default 1; feeds sum rules and the points multiplier */
                        value?: number;
                        /** @description At most 10 name/value pairs */
                        metadata?: string | {
                            [key: string]: string | number | boolean;
                        };
                        /** @description Idempotency key, unique per site; generated (UUIDv7) when absent */
                        eventId?: string;
                        /** @description ISO 8601 (an offset, or none: site time zone) or Unix epoch seconds/milliseconds; default now */
                        timestamp?: string | number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                eventId: string;
                                recorded: boolean;
                                reason?: "repeat_suppressed" | "rate_limited";
                                duplicate: boolean;
                                /** Format: date-time */
                                timestamp: string;
                                pointsAwarded: {
                                    category: string;
                                    /** @description What the reward asked for (boosted, when a boost applied) before the caps */
                                    requested: number;
                                    credited: number;
                                    /** @description The boost in force for this reward (the largest multiplier when several were); absent when none was */
                                    boost?: {
                                        id: string;
                                        name?: string;
                                        multiplier: number;
                                        /** @description What the reward asked for before the boost */
                                        requestedBefore: number;
                                    };
                                }[];
                                missionsCompleted: {
                                    id: string;
                                    name: string;
                                    completionId: string;
                                }[];
                                progress: {
                                    challengeId: string;
                                    percentComplete: number;
                                }[];
                                levelChanged?: {
                                    from: null | {
                                        id: string;
                                        name: string;
                                    };
                                    to: null | {
                                        id: string;
                                        name: string;
                                    };
                                    direction: "up" | "down";
                                };
                                /** @description The user's streaks the action made a new period count for, as of now; absent when none */
                                streaksExtended?: {
                                    id: string;
                                    name: string;
                                    /**
                                     * Format: date
                                     * @description The first local day of the period that newly counts
                                     */
                                    period: string;
                                    current: number;
                                    longest: number;
                                    freezesLeft: number;
                                    /**
                                     * Format: date-time
                                     * @description When the current period ends
                                     */
                                    periodEnds: string;
                                    /** @description The milestones the run reached and was paid (usually none) */
                                    milestones: {
                                        length: number;
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge: string | null;
                                    }[];
                                }[];
                                /** @description Dry run only: the badges the action would award (a user’s, or a group’s whose mission it completes) */
                                badgesEarned?: {
                                    id: string;
                                    name: string;
                                    userId?: string;
                                    groupId?: string;
                                }[];
                                /** @description Dry run only, for a client's token: the webhook events the action would send, and where */
                                webhooks?: {
                                    eventType: string;
                                    destinations: {
                                        /** @description site:<setting> or endpoint:<id> */
                                        destination: string;
                                        url: string;
                                    }[];
                                    /** @description The event as it would be sent (its ids are the dry run’s; the user’s names are added when sent) */
                                    payload: {
                                        [key: string]: unknown;
                                    };
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                eventId: string;
                                recorded: boolean;
                                reason?: "repeat_suppressed" | "rate_limited";
                                duplicate: boolean;
                                /** Format: date-time */
                                timestamp: string;
                                pointsAwarded: {
                                    category: string;
                                    /** @description What the reward asked for (boosted, when a boost applied) before the caps */
                                    requested: number;
                                    credited: number;
                                    /** @description The boost in force for this reward (the largest multiplier when several were); absent when none was */
                                    boost?: {
                                        id: string;
                                        name?: string;
                                        multiplier: number;
                                        /** @description What the reward asked for before the boost */
                                        requestedBefore: number;
                                    };
                                }[];
                                missionsCompleted: {
                                    id: string;
                                    name: string;
                                    completionId: string;
                                }[];
                                progress: {
                                    challengeId: string;
                                    percentComplete: number;
                                }[];
                                levelChanged?: {
                                    from: null | {
                                        id: string;
                                        name: string;
                                    };
                                    to: null | {
                                        id: string;
                                        name: string;
                                    };
                                    direction: "up" | "down";
                                };
                                /** @description The user's streaks the action made a new period count for, as of now; absent when none */
                                streaksExtended?: {
                                    id: string;
                                    name: string;
                                    /**
                                     * Format: date
                                     * @description The first local day of the period that newly counts
                                     */
                                    period: string;
                                    current: number;
                                    longest: number;
                                    freezesLeft: number;
                                    /**
                                     * Format: date-time
                                     * @description When the current period ends
                                     */
                                    periodEnds: string;
                                    /** @description The milestones the run reached and was paid (usually none) */
                                    milestones: {
                                        length: number;
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge: string | null;
                                    }[];
                                }[];
                                /** @description Dry run only: the badges the action would award (a user’s, or a group’s whose mission it completes) */
                                badgesEarned?: {
                                    id: string;
                                    name: string;
                                    userId?: string;
                                    groupId?: string;
                                }[];
                                /** @description Dry run only, for a client's token: the webhook events the action would send, and where */
                                webhooks?: {
                                    eventType: string;
                                    destinations: {
                                        /** @description site:<setting> or endpoint:<id> */
                                        destination: string;
                                        url: string;
                                    }[];
                                    /** @description The event as it would be sent (its ids are the dry run’s; the user’s names are added when sent) */
                                    payload: {
                                        [key: string]: unknown;
                                    };
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/groups/{groupId}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log a group's own action: it advances the group's missions (201; 200 for a repeated eventId) */
        post: {
            parameters: {
                query?: {
                    /** @description Return the decision without writing anything */
                    dryRun?: boolean;
                };
                header?: never;
                path: {
                    groupId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The configured action name (case-insensitive) */
                        action: string;
                        /** @description Default 1; feeds sum rules and the points multiplier */
                        value?: number;
                        /** @description At most 10 name/value pairs */
                        metadata?: string | {
                            [key: string]: string | number | boolean;
                        };
                        /** @description Idempotency key, unique per site; generated (UUIDv7) when absent */
                        eventId?: string;
                        /** @description ISO 8601 (an offset, or none: site time zone) or Unix epoch seconds/milliseconds; default now */
                        timestamp?: string | number;
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description The configured action name (case-insensitive) */
                        action: string;
                        /** @description Default 1; feeds sum rules and the points multiplier */
                        value?: number;
                        /** @description At most 10 name/value pairs */
                        metadata?: string | {
                            [key: string]: string | number | boolean;
                        };
                        /** @description Idempotency key, unique per site; generated (UUIDv7) when absent */
                        eventId?: string;
                        /** @description ISO 8601 (an offset, or none: site time zone) or Unix epoch seconds/milliseconds; default now */
                        timestamp?: string | number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                eventId: string;
                                recorded: boolean;
                                reason?: "repeat_suppressed" | "rate_limited";
                                duplicate: boolean;
                                /** Format: date-time */
                                timestamp: string;
                                pointsAwarded: {
                                    category: string;
                                    /** @description What the reward asked for (boosted, when a boost applied) before the caps */
                                    requested: number;
                                    credited: number;
                                    /** @description The boost in force for this reward (the largest multiplier when several were); absent when none was */
                                    boost?: {
                                        id: string;
                                        name?: string;
                                        multiplier: number;
                                        /** @description What the reward asked for before the boost */
                                        requestedBefore: number;
                                    };
                                }[];
                                missionsCompleted: {
                                    id: string;
                                    name: string;
                                    completionId: string;
                                }[];
                                progress: {
                                    challengeId: string;
                                    percentComplete: number;
                                }[];
                                levelChanged?: {
                                    from: null | {
                                        id: string;
                                        name: string;
                                    };
                                    to: null | {
                                        id: string;
                                        name: string;
                                    };
                                    direction: "up" | "down";
                                };
                                /** @description The user's streaks the action made a new period count for, as of now; absent when none */
                                streaksExtended?: {
                                    id: string;
                                    name: string;
                                    /**
                                     * Format: date
                                     * @description The first local day of the period that newly counts
                                     */
                                    period: string;
                                    current: number;
                                    longest: number;
                                    freezesLeft: number;
                                    /**
                                     * Format: date-time
                                     * @description When the current period ends
                                     */
                                    periodEnds: string;
                                    /** @description The milestones the run reached and was paid (usually none) */
                                    milestones: {
                                        length: number;
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge: string | null;
                                    }[];
                                }[];
                                /** @description Dry run only: the badges the action would award (a user’s, or a group’s whose mission it completes) */
                                badgesEarned?: {
                                    id: string;
                                    name: string;
                                    userId?: string;
                                    groupId?: string;
                                }[];
                                /** @description Dry run only, for a client's token: the webhook events the action would send, and where */
                                webhooks?: {
                                    eventType: string;
                                    destinations: {
                                        /** @description site:<setting> or endpoint:<id> */
                                        destination: string;
                                        url: string;
                                    }[];
                                    /** @description The event as it would be sent (its ids are the dry run’s; the user’s names are added when sent) */
                                    payload: {
                                        [key: string]: unknown;
                                    };
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                eventId: string;
                                recorded: boolean;
                                reason?: "repeat_suppressed" | "rate_limited";
                                duplicate: boolean;
                                /** Format: date-time */
                                timestamp: string;
                                pointsAwarded: {
                                    category: string;
                                    /** @description What the reward asked for (boosted, when a boost applied) before the caps */
                                    requested: number;
                                    credited: number;
                                    /** @description The boost in force for this reward (the largest multiplier when several were); absent when none was */
                                    boost?: {
                                        id: string;
                                        name?: string;
                                        multiplier: number;
                                        /** @description What the reward asked for before the boost */
                                        requestedBefore: number;
                                    };
                                }[];
                                missionsCompleted: {
                                    id: string;
                                    name: string;
                                    completionId: string;
                                }[];
                                progress: {
                                    challengeId: string;
                                    percentComplete: number;
                                }[];
                                levelChanged?: {
                                    from: null | {
                                        id: string;
                                        name: string;
                                    };
                                    to: null | {
                                        id: string;
                                        name: string;
                                    };
                                    direction: "up" | "down";
                                };
                                /** @description The user's streaks the action made a new period count for, as of now; absent when none */
                                streaksExtended?: {
                                    id: string;
                                    name: string;
                                    /**
                                     * Format: date
                                     * @description The first local day of the period that newly counts
                                     */
                                    period: string;
                                    current: number;
                                    longest: number;
                                    freezesLeft: number;
                                    /**
                                     * Format: date-time
                                     * @description When the current period ends
                                     */
                                    periodEnds: string;
                                    /** @description The milestones the run reached and was paid (usually none) */
                                    milestones: {
                                        length: number;
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge: string | null;
                                    }[];
                                }[];
                                /** @description Dry run only: the badges the action would award (a user’s, or a group’s whose mission it completes) */
                                badgesEarned?: {
                                    id: string;
                                    name: string;
                                    userId?: string;
                                    groupId?: string;
                                }[];
                                /** @description Dry run only, for a client's token: the webhook events the action would send, and where */
                                webhooks?: {
                                    eventType: string;
                                    destinations: {
                                        /** @description site:<setting> or endpoint:<id> */
                                        destination: string;
                                        url: string;
                                    }[];
                                    /** @description The event as it would be sent (its ids are the dry run’s; the user’s names are added when sent) */
                                    payload: {
                                        [key: string]: unknown;
                                    };
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a program's history: NDJSON lines of user and group actions, logged through the engine in order */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Lines read, blank ones included */
                                lines: number;
                                /** @description Actions recorded by this import */
                                recorded: number;
                                /** @description Lines whose event id was recorded already (an earlier run): skipped */
                                duplicates: number;
                                /** @description Logged but not recorded: a back-to-back repeat of a suppressRepeats action, or over the action's rate limit */
                                suppressed: {
                                    repeatSuppressed: number;
                                    rateLimited: number;
                                };
                                /** @description Lines refused (not an import line, an unknown action, a bad timestamp, …) */
                                rejected: number;
                                /** @description The first 1000 rejected lines, with their line numbers */
                                rejections: {
                                    line: number;
                                    code: string;
                                    message: string;
                                    errors?: {
                                        path: string;
                                        message: string;
                                    }[];
                                }[];
                                missionsCompleted: number;
                                pointsCredited: number;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/actions/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Reverse a recorded action: its progress, completions, points, badges, level and board scores (idempotent); with dryRun=true, what it would take back, changing nothing */
        delete: {
            parameters: {
                query?: {
                    /** @description Answer what the reversal would take back (with badgesTakenBack and boardScores) without making it */
                    dryRun?: boolean;
                };
                header?: never;
                path: {
                    userId: string;
                    eventId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                eventId?: string;
                                /** @description The reversal had been made before: nothing changed now */
                                alreadyReversed: boolean;
                                completionsRemoved: {
                                    id: string;
                                    name: string;
                                    completionId: string;
                                    userId?: string;
                                    groupId?: string;
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                }[];
                                /** @description The user's debits per category */
                                pointsDebited: {
                                    category: string;
                                    amount: number;
                                }[];
                                /** @description The user's balances after, in the debited categories */
                                balances: {
                                    category: string;
                                    balance: number;
                                }[];
                                /** @description Categories the debits took below zero */
                                negativeBalances: string[];
                                levelChanged?: {
                                    from: null | {
                                        id: string;
                                        name: string;
                                    };
                                    to: null | {
                                        id: string;
                                        name: string;
                                    };
                                    direction: "up" | "down";
                                };
                                /** @description dryRun only: the trophy case entries recounted, and the earnings of each left (0: the badge leaves the case) */
                                badgesTakenBack?: {
                                    id: string;
                                    name: string;
                                    left: number;
                                    userId?: string;
                                    groupId?: string;
                                }[];
                                /** @description dryRun only: the board scores the reversal moves */
                                boardScores?: {
                                    leaderboardId: string;
                                    name: string;
                                    /** Format: date-time */
                                    windowStart: string;
                                    partyId: string;
                                    change: number;
                                    /** @description The score after */
                                    score: number;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/challenges/{challengeId}/completions/latest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove the user's latest completion of a mission with its points, badge and level (give completionId to make a retry change nothing) */
        delete: {
            parameters: {
                query?: {
                    /** @description Remove exactly this completion, if it is still there */
                    completionId?: string;
                };
                header?: never;
                path: {
                    userId: string;
                    challengeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                eventId?: string;
                                /** @description The reversal had been made before: nothing changed now */
                                alreadyReversed: boolean;
                                completionsRemoved: {
                                    id: string;
                                    name: string;
                                    completionId: string;
                                    userId?: string;
                                    groupId?: string;
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                }[];
                                /** @description The user's debits per category */
                                pointsDebited: {
                                    category: string;
                                    amount: number;
                                }[];
                                /** @description The user's balances after, in the debited categories */
                                balances: {
                                    category: string;
                                    balance: number;
                                }[];
                                /** @description Categories the debits took below zero */
                                negativeBalances: string[];
                                levelChanged?: {
                                    from: null | {
                                        id: string;
                                        name: string;
                                    };
                                    to: null | {
                                        id: string;
                                        name: string;
                                    };
                                    direction: "up" | "down";
                                };
                                /** @description dryRun only: the trophy case entries recounted, and the earnings of each left (0: the badge leaves the case) */
                                badgesTakenBack?: {
                                    id: string;
                                    name: string;
                                    left: number;
                                    userId?: string;
                                    groupId?: string;
                                }[];
                                /** @description dryRun only: the board scores the reversal moves */
                                boardScores?: {
                                    leaderboardId: string;
                                    name: string;
                                    /** Format: date-time */
                                    windowStart: string;
                                    partyId: string;
                                    change: number;
                                    /** @description The score after */
                                    score: number;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{userId}/points": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Credit or debit points through the ledger (caps do not apply; a debit may take the balance below zero) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        category: string;
                        /** @description Positive credits, negative debits */
                        amount: number;
                        reason: string;
                    };
                    "application/x-www-form-urlencoded": {
                        category: string;
                        /** @description Positive credits, negative debits */
                        amount: number;
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                entryId: string;
                                category: string;
                                amount: number;
                                reason: string;
                                balance: number;
                                levelChanged?: {
                                    from: null | {
                                        id: string;
                                        name: string;
                                    };
                                    to: null | {
                                        id: string;
                                        name: string;
                                    };
                                    direction: "up" | "down";
                                };
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{userId}/point-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's point entries, newest first: mission rewards, reversals, adjustments with their reason, recognitions (X-Total-Count) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                entryId: string;
                                /**
                                 * Format: date-time
                                 * @description When the entry was written
                                 */
                                recordedAt: string;
                                /**
                                 * Format: date-time
                                 * @description When it counts: the action's time; for a reversal, the credit's; for an expiry, when the points expired
                                 */
                                occurredAt: string;
                                category: string;
                                /** @description What the balance moved by (after caps; negative for a debit) */
                                amount: number;
                                /** @description What the reward asked for before caps */
                                requested: number;
                                cause: "mission" | "reversal" | "adjustment" | "recognition" | "expiry" | "streak" | "prize";
                                /** @description The completion (mission, reversal), the recognition, the entry itself (adjustment), for an expiry the instant (ISO) before which the expired points were earned, `streakId:runStart:length` (streak milestone), or the closing (prize) */
                                causeId: string;
                                /** @description The action event behind a mission credit or a reversal */
                                eventId: string | null;
                                action: string | null;
                                mission: null | {
                                    id: string;
                                    name: string;
                                };
                                /** @description An adjustment's reason, a recognition's message */
                                reason: string | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/actions/log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every recorded action of the site, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Inclusive lower bound (ISO 8601 or epoch) */
                    from?: string;
                    /** @description Exclusive upper bound (ISO 8601 or epoch) */
                    to?: string;
                    action?: string;
                    limit?: number;
                    /** @description From the X-Next-Cursor header of the previous page */
                    cursor?: string;
                    userId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                eventId: string;
                                userId?: string;
                                groupId?: string;
                                action: string;
                                value: number;
                                metadata: {
                                    [key: string]: string;
                                };
                                /** Format: date-time */
                                timestamp: string;
                                /** Format: date-time */
                                receivedAt: string;
                                /**
                                 * Format: date-time
                                 * @description Present when an admin reversed the action (its effects were taken back)
                                 */
                                reversedAt?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/actions/active-users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users with at least one recorded action per day (the calendar day of the action timestamp, so backdated actions count on their day) */
        get: {
            parameters: {
                query: {
                    /** @description YYYY-MM-DD (site time zone) */
                    from: string;
                    /** @description YYYY-MM-DD (site time zone) */
                    to: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                date: string;
                                activeUsers: number;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/analytics/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The program's health per day: actions, active users, points, completions, levels and webhook deliveries */
        get: {
            parameters: {
                query?: {
                    /** @description The range: the last 7, 30, 90 days up to today (today included), in the site's time zone */
                    days?: 7 | 30 | 90;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The site's time zone, which the days are of */
                                timezone: string;
                                /** @description YYYY-MM-DD, oldest first, today last: every day of the range */
                                days: string[];
                                /** Format: date-time */
                                generatedAt: string;
                                /** @description Recorded actions of users and groups, on the day of their timestamp; a reversed action still counts (it happened) */
                                actions: {
                                    /** @description The sum over the range */
                                    total: number;
                                    /** @description One figure per day of `days`, in the same order (oldest first) */
                                    perDay: number[];
                                    /** @description Actions recorded in the range, most first */
                                    byAction: {
                                        action: string;
                                        /** @description The sum over the range */
                                        total: number;
                                        /** @description One figure per day of `days`, in the same order (oldest first) */
                                        perDay: number[];
                                    }[];
                                };
                                /** @description Users with at least one recorded action of their own that day (receiving a recognition does not count) */
                                activeUsers: {
                                    /** @description One figure per day of `days`, in the same order (oldest first) */
                                    perDay: number[];
                                };
                                /** @description Points issued per category, net: credits less the debits that took points back, on the day the points count (a reversal lowers the day of the credit it takes back) */
                                points: {
                                    category: string;
                                    isDefault: boolean;
                                    /** @description The sum over the range */
                                    total: number;
                                    /** @description One figure per day of `days`, in the same order (oldest first) */
                                    perDay: number[];
                                }[];
                                /** @description Mission completions on the day of the completing action, net: a removed completion no longer counts */
                                completions: {
                                    /** @description The sum over the range */
                                    total: number;
                                    /** @description One figure per day of `days`, in the same order (oldest first) */
                                    perDay: number[];
                                    /** @description Every mission of the program in its order, then missions no longer in it that completed in the range */
                                    missions: {
                                        missionId: string;
                                        name: string;
                                        /** @description The sum over the range */
                                        total: number;
                                        /** @description One figure per day of `days`, in the same order (oldest first) */
                                        perDay: number[];
                                    }[];
                                };
                                /** @description The 10 missions completed most in the range (none with 0) */
                                topMissions: {
                                    missionId: string;
                                    name: string;
                                    completions: number;
                                }[];
                                /** @description Times a user reached each level (a change up into it), per day */
                                levels: {
                                    levelId: string;
                                    name: string;
                                    /** @description The sum over the range */
                                    total: number;
                                    /** @description One figure per day of `days`, in the same order (oldest first) */
                                    perDay: number[];
                                }[];
                                /** @description Deliveries made each day by their status now (failed: given up after 3 days of retries), and what waits now */
                                webhooks: {
                                    /** @description One figure per day of `days`, in the same order (oldest first) */
                                    delivered: number[];
                                    /** @description One figure per day of `days`, in the same order (oldest first) */
                                    failed: number[];
                                    /** @description One figure per day of `days`, in the same order (oldest first) */
                                    pending: number[];
                                    backlog: {
                                        /** @description Deliveries waiting for an attempt */
                                        pending: number;
                                        /** @description Of those, deliveries that failed at least once */
                                        retrying: number;
                                        oldestPendingAt: string | null;
                                        /** @description Events written, not routed into deliveries yet */
                                        unrouted: number;
                                    };
                                };
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/point-balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's points: the default category at the top, every category with today's limit */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                balance: number;
                                lifetimeBalance: number;
                                categories: {
                                    id: string;
                                    name: string;
                                    isDefault: boolean;
                                    balance: number;
                                    /** @description Every credit ever, debits not subtracted */
                                    lifetimeBalance: number;
                                    dailyLimit: number | null;
                                    /** @description Earned through actions and missions today (site time zone) */
                                    earnedToday: number;
                                    remainingToday: number | null;
                                    expiringSoon?: {
                                        /** @description Points that expire then (the oldest of the balance) */
                                        amount: number;
                                        /**
                                         * Format: date-time
                                         * @description When they expire
                                         */
                                        date: string;
                                    } | null;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/levels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Current and next level, and the way there */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                current: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    threshold: number;
                                } | null;
                                next: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    threshold: number;
                                } | null;
                                /** @description Lifetime points in the default category */
                                points: number;
                                pointsToNext: number | null;
                                percentToNext: number | null;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/badges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The trophy case, most recently earned first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                earnedCount: number;
                                /** Format: date-time */
                                firstEarnedAt: string;
                                /** Format: date-time */
                                lastEarnedAt: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/streaks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's streaks as of now: current and longest run, freezes left, whether this period is done and when it ends */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                /** @description Site-local days, or weeks starting Sunday */
                                period: "day" | "week";
                                /** @description Periods counted in the live run (0: none, or broken) */
                                current: number;
                                /** @description The longest run ever, in counted periods */
                                longest: number;
                                /** @description Missed periods the run can still absorb */
                                freezesLeft: number;
                                freezesMax: number;
                                /** @description The current period already counts */
                                doneThisPeriod: boolean;
                                /**
                                 * Format: date
                                 * @description The first local day of the current period
                                 */
                                periodStart: string;
                                /**
                                 * Format: date-time
                                 * @description When the current period ends
                                 */
                                periodEnds: string;
                                nextMilestone: {
                                    length: number;
                                    rewards: {
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                } | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/ranked-challenges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The eligible missions, best recommendation first, each with its score and reasons */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                startDate?: string;
                                endDate?: string;
                                featuredStartDate?: string;
                                featuredEndDate?: string;
                                timezone: string;
                                /** @description Now is within the featured dates */
                                featured: boolean;
                                repeatable: boolean;
                                /** @default {} */
                                rewards: {
                                    /** @default [] */
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                importance: number;
                                percentComplete: number;
                                /** @description Eligible list: prerequisite missions are not done yet */
                                locked?: boolean;
                                lockedReason?: string;
                                /** @description Completed list */
                                completionCount?: number;
                                /** Format: date-time */
                                lastCompletedAt?: string;
                                /** @description The recommendation score (docs/recommendations.md) */
                                score: number;
                                /** @description What raised the score */
                                reasons: ("featured" | "important" | "close_to_completion" | "expiring_soon" | "recently_unlocked" | "big_reward")[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/challenges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's eligible (default) or completed missions */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                    type?: "eligible" | "completed";
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                startDate?: string;
                                endDate?: string;
                                featuredStartDate?: string;
                                featuredEndDate?: string;
                                timezone: string;
                                /** @description Now is within the featured dates */
                                featured: boolean;
                                repeatable: boolean;
                                /** @default {} */
                                rewards: {
                                    /** @default [] */
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                importance: number;
                                percentComplete: number;
                                /** @description Eligible list: prerequisite missions are not done yet */
                                locked?: boolean;
                                lockedReason?: string;
                                /** @description Completed list */
                                completionCount?: number;
                                /** Format: date-time */
                                lastCompletedAt?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/challenges/{challengeId}/progress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's progress in one mission */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                    challengeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                challengeId: string;
                                rules: {
                                    ruleId: string;
                                    action: string;
                                    goal: number;
                                    current: number;
                                    achieved: boolean;
                                }[];
                                percentComplete: number;
                                completionCount: number;
                                /** @description The current repeat window of a repeatable mission */
                                window: null | {
                                    /** Format: date-time */
                                    start: string;
                                    /** Format: date-time */
                                    end: string;
                                };
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/groups/{groupId}/challenges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The group's eligible (default) or completed missions */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                    type?: "eligible" | "completed";
                };
                header?: never;
                path: {
                    groupId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                iconUrl?: string;
                                startDate?: string;
                                endDate?: string;
                                featuredStartDate?: string;
                                featuredEndDate?: string;
                                timezone: string;
                                /** @description Now is within the featured dates */
                                featured: boolean;
                                repeatable: boolean;
                                /** @default {} */
                                rewards: {
                                    /** @default [] */
                                    points: {
                                        category: string;
                                        amount: number;
                                    }[];
                                    multiplier?: number;
                                    badge?: string;
                                };
                                importance: number;
                                percentComplete: number;
                                /** @description Eligible list: prerequisite missions are not done yet */
                                locked?: boolean;
                                lockedReason?: string;
                                /** @description Completed list */
                                completionCount?: number;
                                /** Format: date-time */
                                lastCompletedAt?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/groups/{groupId}/challenges/{challengeId}/progress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The group's progress in one mission */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    groupId: string;
                    challengeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                challengeId: string;
                                rules: {
                                    ruleId: string;
                                    action: string;
                                    goal: number;
                                    current: number;
                                    achieved: boolean;
                                }[];
                                percentComplete: number;
                                completionCount: number;
                                /** @description The current repeat window of a repeatable mission */
                                window: null | {
                                    /** Format: date-time */
                                    start: string;
                                    /** Format: date-time */
                                    end: string;
                                };
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/preferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's name, image, profile link, role and custom preferences */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                firstName: string | null;
                                lastName: string | null;
                                userProfileUrl: string | null;
                                /** @description The user image */
                                iconUrl: string | null;
                                /** @description Deprecated (30 Sep 2026): the legacy image, still read; iconUrl falls back to it */
                                userPhotoUrl: string | null;
                                /** @description Read-only here; set by admins */
                                role: string | null;
                                /** @description Custom preferences (at most 50) */
                                custom: {
                                    [key: string]: string;
                                };
                            };
                        };
                    };
                };
            };
        };
        /** Set preferences by name (others are kept; null or empty removes one). Writing userPhotoUrl is deprecated: use iconUrl */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: string | null;
                    };
                    "application/x-www-form-urlencoded": {
                        [key: string]: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                firstName: string | null;
                                lastName: string | null;
                                userProfileUrl: string | null;
                                /** @description The user image */
                                iconUrl: string | null;
                                /** @description Deprecated (30 Sep 2026): the legacy image, still read; iconUrl falls back to it */
                                userPhotoUrl: string | null;
                                /** @description Read-only here; set by admins */
                                role: string | null;
                                /** @description Custom preferences (at most 50) */
                                custom: {
                                    [key: string]: string;
                                };
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{userId}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a user's role (read-only in preferences) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        role: string | null;
                    };
                    "application/x-www-form-urlencoded": {
                        role: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                firstName: string | null;
                                lastName: string | null;
                                userProfileUrl: string | null;
                                /** @description The user image */
                                iconUrl: string | null;
                                /** @description Deprecated (30 Sep 2026): the legacy image, still read; iconUrl falls back to it */
                                userPhotoUrl: string | null;
                                /** @description Read-only here; set by admins */
                                role: string | null;
                                /** @description Custom preferences (at most 50) */
                                custom: {
                                    [key: string]: string;
                                };
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{userId}/level": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a user's level (sites with levelType custom) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        levelId: string;
                    };
                    "application/x-www-form-urlencoded": {
                        levelId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                levelChanged: null | {
                                    from: null | {
                                        id: string;
                                        name: string;
                                    };
                                    to: null | {
                                        id: string;
                                        name: string;
                                    };
                                    direction: "up" | "down";
                                };
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/at-a-glance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A summary of the user's activity */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                userId: string;
                                firstName: string | null;
                                lastName: string | null;
                                iconUrl: string | null;
                                points: {
                                    balance: number;
                                    lifetimeBalance: number;
                                    category: string | null;
                                    /** @description Only when the default category has an expiry rule: its next points to expire (as in GET /users/{u}/point-balance) */
                                    expiringSoon?: {
                                        amount: number;
                                        /** Format: date-time */
                                        date: string;
                                    } | null;
                                };
                                level: {
                                    current: null | {
                                        id: string;
                                        name: string;
                                        iconUrl?: string;
                                    };
                                    next: null | {
                                        id: string;
                                        name: string;
                                        iconUrl?: string;
                                    };
                                    pointsToNext: number | null;
                                    percentToNext: number | null;
                                };
                                badges: {
                                    /** @description Distinct badges in the trophy case */
                                    count: number;
                                    latest: {
                                        id: string;
                                        name: string;
                                        iconUrl?: string;
                                        /** Format: date-time */
                                        lastEarnedAt: string;
                                    }[];
                                };
                                missions: {
                                    /** @description Distinct missions completed */
                                    completed: number;
                                    /** @description Eligible missions with some progress */
                                    inProgress: number;
                                    eligible: number;
                                };
                                /** @description Rank on the site's primary leaderboard in its current window (null: no primary board, or not on it) */
                                rank: number | null;
                                recentActions: {
                                    eventId: string;
                                    action: string;
                                    value: number;
                                    /** Format: date-time */
                                    timestamp: string;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/leaderboards/{leaderboardId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The leaderboard as the program defines it (read-only; any token of the site) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    leaderboardId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                metric: {
                                    type: "points" | "lifetimePoints" | "missionsCompleted" | "actionCount" | "actionValueSum";
                                    category?: string;
                                    action?: string;
                                };
                                /** @default allTime */
                                period: "allTime" | "day" | "week" | "month" | "quarter" | "year";
                                /** @default user */
                                party: "user" | "group";
                                groupFilter?: string;
                                /** @default 100 */
                                size: number;
                                /** @default false */
                                primary: boolean;
                                /** @description The board closes for good at this local date-time (site time zone); its last window ends there */
                                end?: string;
                                /** @description Paid once to the final standings of each window that closes */
                                prizes?: {
                                    /** @description A rank or a range of ranks, e.g. "1" or "2-5" */
                                    ranks: string;
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: string;
                                    };
                                }[];
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/leaderboards/{leaderboardId}/leaders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the leaderboard, highest score first (total in X-Total-Count, at most the board size) */
        get: {
            parameters: {
                query?: {
                    /** @description Default: the board's size, at most 50; at most the board's size */
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                    /** @description current (default), previous, or a date (YYYY-MM-DD) inside the wanted window, in the site time zone */
                    window?: string;
                };
                header?: never;
                path: {
                    leaderboardId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Shared by equal scores (1, 2, 2, 4) */
                                rank: number;
                                userId?: string;
                                /** @description On group boards, instead of userId */
                                groupId?: string;
                                score: number;
                                firstName: string | null;
                                lastName: string | null;
                                iconUrl: string | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/leaderboards/{leaderboardId}/leaders/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's rank and score on the leaderboard, and the entries around them */
        get: {
            parameters: {
                query?: {
                    /** @description current (default), previous, or a date (YYYY-MM-DD) inside the wanted window, in the site time zone */
                    window?: string;
                    /** @description Entries on each side */
                    around?: number;
                };
                header?: never;
                path: {
                    leaderboardId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                rank: number | null;
                                score: number | null;
                                entries: {
                                    /** @description Shared by equal scores (1, 2, 2, 4) */
                                    rank: number;
                                    userId?: string;
                                    /** @description On group boards, instead of userId */
                                    groupId?: string;
                                    score: number;
                                    firstName: string | null;
                                    lastName: string | null;
                                    iconUrl: string | null;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/leaders/layoutUuid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The layouts with a leaderboard the user is on in its current window, with the user's rank on each of their boards */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                uuid: string;
                                name: string;
                                leaderboards: {
                                    id: string;
                                    name: string;
                                    period: string;
                                    party: "user" | "group";
                                    rank: number | null;
                                    score: number | null;
                                    /** @description Group boards: the group the rank is of */
                                    groupId?: string;
                                    /** @description The top entries (one layout only) */
                                    leaders?: {
                                        /** @description Shared by equal scores (1, 2, 2, 4) */
                                        rank: number;
                                        userId?: string;
                                        /** @description On group boards, instead of userId */
                                        groupId?: string;
                                        score: number;
                                        firstName: string | null;
                                        lastName: string | null;
                                        iconUrl: string | null;
                                    }[];
                                }[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/leaders/{layoutUuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One layout: each of its leaderboards' top entries in the current window and the user's rank on it */
        get: {
            parameters: {
                query?: {
                    /** @description Top entries per board (at most the board's size) */
                    limit?: number;
                };
                header?: never;
                path: {
                    userId: string;
                    layoutUuid: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                uuid: string;
                                name: string;
                                leaderboards: {
                                    id: string;
                                    name: string;
                                    period: string;
                                    party: "user" | "group";
                                    rank: number | null;
                                    score: number | null;
                                    /** @description Group boards: the group the rank is of */
                                    groupId?: string;
                                    /** @description The top entries (one layout only) */
                                    leaders?: {
                                        /** @description Shared by equal scores (1, 2, 2, 4) */
                                        rank: number;
                                        userId?: string;
                                        /** @description On group boards, instead of userId */
                                        groupId?: string;
                                        score: number;
                                        firstName: string | null;
                                        lastName: string | null;
                                        iconUrl: string | null;
                                    }[];
                                }[];
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/leaderboards/{leaderboardId}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The leaderboard's closed windows, newest first, with their winners and prizes (total in X-Total-Count) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path: {
                    leaderboardId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                closingId: string;
                                /** Format: date-time */
                                windowStart: string;
                                /**
                                 * Format: date-time
                                 * @description The first instant after the window
                                 */
                                windowEnd: string;
                                firstDay: string | null;
                                /**
                                 * Format: date
                                 * @description The window's last day in the site time zone
                                 */
                                lastDay: string;
                                /** Format: date-time */
                                closedAt: string;
                                /** @description Every party ranked first, and every party paid a prize, in final order */
                                winners: {
                                    /** @description The final rank, shared by equal scores (1, 2, 2, 4) */
                                    rank: number;
                                    userId?: string;
                                    /** @description On group boards, instead of userId */
                                    groupId?: string;
                                    firstName: string | null;
                                    lastName: string | null;
                                    score: number;
                                    prize: {
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        badge?: {
                                            id: string;
                                            name: string;
                                        };
                                    } | null;
                                }[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/exchanges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The exchanges the user may give in now */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description The exchange's time zone (the site's unless it has its own) */
                                timezone: string;
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                givers: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                recipients: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                pointCategory: string;
                                budget: {
                                    amount: number;
                                    period: "none" | "month" | "quarter" | "year";
                                };
                                /** @default 1 */
                                minPoints: number;
                                maxPoints?: number;
                                /** @default 10 */
                                maxRecipients: number;
                                /** @default [] */
                                categories: {
                                    id: string;
                                    name: string;
                                    iconUrl?: string;
                                }[];
                                /** @description Open now (its dates, in its time zone) */
                                active: boolean;
                                /** @description This user may give in it now */
                                canGive: boolean;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/exchanges/{exchangeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One exchange, and whether the user may give in it now */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                    exchangeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                startDate?: string;
                                /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                endDate?: string;
                                /** @description The exchange's time zone (the site's unless it has its own) */
                                timezone: string;
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                givers: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                /**
                                 * @description Empty: everyone
                                 * @default {}
                                 */
                                recipients: {
                                    /** @default [] */
                                    groups: string[];
                                };
                                pointCategory: string;
                                budget: {
                                    amount: number;
                                    period: "none" | "month" | "quarter" | "year";
                                };
                                /** @default 1 */
                                minPoints: number;
                                maxPoints?: number;
                                /** @default 10 */
                                maxRecipients: number;
                                /** @default [] */
                                categories: {
                                    id: string;
                                    name: string;
                                    iconUrl?: string;
                                }[];
                                /** @description Open now (its dates, in its time zone) */
                                active: boolean;
                                /** @description This user may give in it now */
                                canGive: boolean;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/exchanges/{exchangeId}/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The categories of the exchange */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                    exchangeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                iconUrl?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/exchanges/{exchangeId}/points": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's points budget for the exchange in the current period */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                    exchangeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Points the giver may give per period: the exchange's budget.amount */
                                amount: number;
                                used: number;
                                remaining: number;
                                period: "none" | "month" | "quarter" | "year";
                                resetsAt: string | null;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/exchanges/{exchangeId}/recipients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users the user may recognize in the exchange (never themselves), by name; total in X-Total-Count */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                    /** @description Part of a name, or the start of a user id (case-insensitive) */
                    q?: string;
                    /**
                     * @deprecated
                     * @description Deprecated (28 June 2023; removal announced for November 2023): accepted and ignored
                     */
                    preferences?: string;
                };
                header?: never;
                path: {
                    userId: string;
                    exchangeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                userId: string;
                                firstName: string | null;
                                lastName: string | null;
                                iconUrl: string | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/interactions-collection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recognitions the user gave and/or received, newest first; total in X-Total-Count */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                    type?: "given" | "received" | "all";
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                type: "given" | "received";
                                exchangeId: string;
                                category: {
                                    id: string;
                                    name: string;
                                };
                                comment: string;
                                giver: {
                                    userId: string;
                                    firstName: string | null;
                                    lastName: string | null;
                                    iconUrl: string | null;
                                };
                                recipients: {
                                    userId: string;
                                    firstName: string | null;
                                    lastName: string | null;
                                    iconUrl: string | null;
                                    points: number;
                                }[];
                                /** @description The total given */
                                points: number;
                                /** @description What this user received (received recognitions) */
                                pointsReceived?: number;
                                /** Format: date-time */
                                givenAt: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Recognize one or more users: their points come from the giver’s budget (201) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        exchangeId: string;
                        categoryId: string;
                        /** @description At most 255 characters (Unicode code points) */
                        comment?: string;
                        /** @description User ids (form: repeated key or a,b); may be left out when recipientPoints names them */
                        recipients?: string[];
                        /** @description The amount each recipient gets */
                        points?: number;
                        /** @description An amount per recipient, instead of points */
                        recipientPoints?: {
                            [key: string]: number;
                        } | string;
                    };
                    "application/x-www-form-urlencoded": {
                        exchangeId: string;
                        categoryId: string;
                        /** @description At most 255 characters (Unicode code points) */
                        comment?: string;
                        /** @description User ids (form: repeated key or a,b); may be left out when recipientPoints names them */
                        recipients?: string[];
                        /** @description The amount each recipient gets */
                        points?: number;
                        /** @description An amount per recipient, instead of points */
                        recipientPoints?: {
                            [key: string]: number;
                        } | string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                exchangeId: string;
                                category: {
                                    id: string;
                                    name: string;
                                };
                                comment: string;
                                giver: {
                                    userId: string;
                                };
                                recipients: {
                                    userId: string;
                                    points: number;
                                    levelChanged?: {
                                        from: null | {
                                            id: string;
                                            name: string;
                                        };
                                        to: null | {
                                            id: string;
                                            name: string;
                                        };
                                        direction: "up" | "down";
                                    };
                                }[];
                                /** @description The total, charged to the budget */
                                points: number;
                                /** Format: date-time */
                                givenAt: string;
                                budget: {
                                    /** @description Points the giver may give per period: the exchange's budget.amount */
                                    amount: number;
                                    used: number;
                                    remaining: number;
                                    period: "none" | "month" | "quarter" | "year";
                                    resetsAt: string | null;
                                };
                                missionsCompleted: {
                                    id: string;
                                    name: string;
                                    completionId: string;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated (28 June 2023; removal announced for November 2023): use GET /challenges, GET /actions and the user endpoints
         * @deprecated
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                    /** @description The start of an id, or of a word of a name (case-insensitive); empty: everything */
                    q?: string;
                    /** @description One kind only; default all three */
                    type?: "missions" | "actions" | "users";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                missions?: {
                                    id: string;
                                    name: string;
                                    description?: string;
                                    iconUrl?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    startDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    endDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    featuredStartDate?: string;
                                    /** @description Local date-time, e.g. 2026-01-31T23:59:59 */
                                    featuredEndDate?: string;
                                    /**
                                     * @description IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone
                                     * @default America/Los_Angeles
                                     */
                                    timezone: string;
                                    /** @default not_hidden */
                                    hidden: "always_hidden" | "hidden_until_unlocked" | "hidden_until_earned" | "not_hidden";
                                    /** @default {} */
                                    prerequisites: {
                                        /** @default [] */
                                        groups: string[];
                                        /** @default [] */
                                        missions: string[];
                                        /** @description A level id: only users who have reached it see and advance the mission */
                                        minLevel?: string;
                                        /** @description Members of any of these groups do not see or advance the mission */
                                        excludedGroups?: string[];
                                    };
                                    /** @default user */
                                    party: "user" | "group";
                                    /** @default all */
                                    ruleMatch: "all" | "any";
                                    rules: {
                                        id: string;
                                        /** @description An action name (case-insensitive) */
                                        action: string;
                                        /** @default count */
                                        type: "count" | "sum";
                                        goal: number;
                                        /** @default [] */
                                        metadata: {
                                            name: string;
                                            value: string;
                                        }[];
                                    }[];
                                    /** @default {} */
                                    rewards: {
                                        /** @default [] */
                                        points: {
                                            category: string;
                                            amount: number;
                                        }[];
                                        multiplier?: number;
                                        badge?: string;
                                    };
                                    repeatableWindow?: {
                                        period: "none" | "day" | "week" | "month";
                                        maxPerPeriod?: number;
                                    };
                                    /** @default 0 */
                                    importance: number;
                                    /** @description At most this many completions site-wide */
                                    supply?: number;
                                }[];
                                actions?: {
                                    /** @description Unique, case-insensitive */
                                    name: string;
                                    description?: string;
                                    rateLimit?: {
                                        max: number;
                                        period: "minute" | "hour" | "day" | "week";
                                    };
                                    /** @default false */
                                    suppressRepeats: boolean;
                                    /** @default false */
                                    clientLoggable: boolean;
                                }[];
                                users?: {
                                    userId: string;
                                    firstName: string | null;
                                    lastName: string | null;
                                    iconUrl: string | null;
                                }[];
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The users the site knows, named ones first in name order, then by id (total in X-Total-Count) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                    /** @description Matched ignoring case against the user id's start and anywhere in the name */
                    q?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                userId: string;
                                firstName: string | null;
                                lastName: string | null;
                                iconUrl: string | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/quizzes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The quizzes open now, with the user's status, attempts and best score */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                name: string;
                                description?: string;
                                startDate?: string;
                                endDate?: string;
                                timezone: string;
                                passingPercent: number;
                                maxAttempts: number | null;
                                questionCount: number;
                                status: "not_started" | "in_progress" | "passed" | "failed";
                                attemptsUsed: number;
                                attemptsLeft: number | null;
                                bestScore: number | null;
                                currentAttempt: {
                                    attempt: number;
                                    answered: number;
                                } | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/quizzes/{quizId}/questions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The questions and their choices, in order; which choices are correct is never shown */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                    quizId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                text: string;
                                type: "single" | "multiple";
                                choices: {
                                    id: string;
                                    text: string;
                                }[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/quizzes/{quizId}/questions/{questionId}/responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's answers to the question, per attempt, with their correctness */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                    quizId: string;
                    questionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                attempt: number;
                                choiceIds: string[];
                                correct: boolean;
                                /** Format: date-time */
                                answeredAt: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Answer a question in the current attempt (201); the last answer of an attempt scores it and logs QUIZ_COMPLETED */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                    quizId: string;
                    questionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description One choice id (single) or one or more (multiple); form: repeated key or a,b */
                        choiceIds: string[] | string;
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description One choice id (single) or one or more (multiple); form: repeated key or a,b */
                        choiceIds: string[] | string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                quizId: string;
                                questionId: string;
                                attempt: number;
                                choiceIds: string[];
                                correct: boolean;
                                /** Format: date-time */
                                answeredAt: string;
                                result: {
                                    attempt: number;
                                    totalCorrect: number;
                                    totalQuestions: number;
                                    percentCorrect: number;
                                    passed: boolean;
                                    /** @description The QUIZ_COMPLETED action logged */
                                    eventId: string;
                                    pointsAwarded: {
                                        category: string;
                                        /** @description What the reward asked for (boosted, when a boost applied) before the caps */
                                        requested: number;
                                        credited: number;
                                        /** @description The boost in force for this reward (the largest multiplier when several were); absent when none was */
                                        boost?: {
                                            id: string;
                                            name?: string;
                                            multiplier: number;
                                            /** @description What the reward asked for before the boost */
                                            requestedBefore: number;
                                        };
                                    }[];
                                    missionsCompleted: {
                                        id: string;
                                        name: string;
                                        completionId: string;
                                    }[];
                                    levelChanged?: {
                                        from: null | {
                                            id: string;
                                            name: string;
                                        };
                                        to: null | {
                                            id: string;
                                            name: string;
                                        };
                                        direction: "up" | "down";
                                    };
                                } | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/award-access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's access to marketplaces and on-the-spot redemption */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The site has a marketplace the user can visit */
                                marketplaceAccess: boolean;
                                /** @description The user may redeem on-the-spot codes */
                                otsAccess: boolean;
                                countryCode: string | null;
                                verified: boolean;
                                /** @description The user may look but not spend: their country is not allowed, or they are not verified where that is required */
                                browseOnly: boolean;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/award-balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Award balance available for redemption, and pending */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description Points that can be spent now */
                                available: number;
                                /** @description Points credited but held (holdDays) */
                                pending: number;
                                currency: string | null;
                                conversionRate: number | null;
                                availableValue: number | null;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/award-statement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Award account credits and debits, newest first (X-Total-Count) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                };
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                entryId: string;
                                kind: "mission" | "adjustment" | "recognition" | "prize" | "reversal" | "expiry" | "ots" | "purchase" | "gift" | "refund";
                                /** @description Credits positive, debits negative */
                                amount: number;
                                /** @description The balance (available and pending) after this entry */
                                balance: number;
                                /** @description The completion, recognition, adjustment, code, order or gift reference, or the debit a refund gives back */
                                reference: string;
                                description: string | null;
                                /** Format: date-time */
                                postedAt: string;
                                /** Format: date-time */
                                availableAt: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/award-marketplace-url/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A short-lived signed sign-in URL for the marketplace, and whether the user may only browse */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                    type: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                type: string;
                                /** @description Sign-in URL with a signed token (ES256; keys at /sites/{siteId}/jwks.json) */
                                url: string;
                                browseOnly: boolean;
                                /** Format: date-time */
                                expiresAt: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/award-ots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Redeem an on-the-spot code (201): credits the award account and logs OTS_REDEMPTION */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                    };
                    "application/x-www-form-urlencoded": {
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                codeId: string;
                                amount: number;
                                entry: {
                                    entryId: string;
                                    kind: "mission" | "adjustment" | "recognition" | "prize" | "reversal" | "expiry" | "ots" | "purchase" | "gift" | "refund";
                                    /** @description Credits positive, debits negative */
                                    amount: number;
                                    /** @description The balance (available and pending) after this entry */
                                    balance: number;
                                    /** @description The completion, recognition, adjustment, code, order or gift reference, or the debit a refund gives back */
                                    reference: string;
                                    description: string | null;
                                    /** Format: date-time */
                                    postedAt: string;
                                    /** Format: date-time */
                                    availableAt: string;
                                };
                                balance: {
                                    /** @description Points that can be spent now */
                                    available: number;
                                    /** @description Points credited but held (holdDays) */
                                    pending: number;
                                    currency: string | null;
                                    conversionRate: number | null;
                                    availableValue: number | null;
                                };
                                /** @description The OTS_REDEMPTION action logged */
                                eventId: string;
                                pointsAwarded: {
                                    category: string;
                                    /** @description What the reward asked for (boosted, when a boost applied) before the caps */
                                    requested: number;
                                    credited: number;
                                    /** @description The boost in force for this reward (the largest multiplier when several were); absent when none was */
                                    boost?: {
                                        id: string;
                                        name?: string;
                                        multiplier: number;
                                        /** @description What the reward asked for before the boost */
                                        requestedBefore: number;
                                    };
                                }[];
                                missionsCompleted: {
                                    id: string;
                                    name: string;
                                    completionId: string;
                                }[];
                                levelChanged?: {
                                    from: null | {
                                        id: string;
                                        name: string;
                                    };
                                    to: null | {
                                        id: string;
                                        name: string;
                                    };
                                    direction: "up" | "down";
                                };
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/award-catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: the sign-in URL of every marketplace; use award-marketplace-url/{type}
         * @deprecated
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                type: string;
                                /** @description Sign-in URL with a signed token (ES256; keys at /sites/{siteId}/jwks.json) */
                                url: string;
                                browseOnly: boolean;
                                /** Format: date-time */
                                expiresAt: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/award-country-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: the user's award country; use award-access
         * @deprecated
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                countryCode: string | null;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/award-verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: whether the user is verified; use award-access
         * @deprecated
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                verified: boolean;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{userId}/award-access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set the user's award country and verification; what is left out stays */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        countryCode?: string | null;
                        verified?: boolean;
                    };
                    "application/x-www-form-urlencoded": {
                        countryCode?: string | null;
                        verified?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description The site has a marketplace the user can visit */
                                marketplaceAccess: boolean;
                                /** @description The user may redeem on-the-spot codes */
                                otsAccess: boolean;
                                countryCode: string | null;
                                verified: boolean;
                                /** @description The user may look but not spend: their country is not allowed, or they are not verified where that is required */
                                browseOnly: boolean;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/admin/ots-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issue a batch of on-the-spot codes (201); the codes are in this response only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        count: number;
                        /** @description Points each code credits */
                        amount: number;
                        /** Format: date-time */
                        expiresAt: string;
                    };
                    "application/x-www-form-urlencoded": {
                        count: number;
                        /** @description Points each code credits */
                        amount: number;
                        /** Format: date-time */
                        expiresAt: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                batchId: string;
                                amount: number;
                                /** Format: date-time */
                                expiresAt: string;
                                codes: string[];
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/ots-codes/{batchId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A batch's codes: how many, and how many are redeemed */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    batchId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                batchId: string;
                                count: number;
                                redeemed: number;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{userId}/award-debits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Debit a marketplace purchase or a gift (201; 200 for a reference posted before); notifies itemPurchaseNotifyUrl or giftNotifyUrl */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        kind: "purchase" | "gift";
                        /** @description Points */
                        amount: number;
                        /** @description The marketplace's order or gift reference; the same one again is not charged twice */
                        reference: string;
                        description?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        kind: "purchase" | "gift";
                        /** @description Points */
                        amount: number;
                        /** @description The marketplace's order or gift reference; the same one again is not charged twice */
                        reference: string;
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                entry: {
                                    entryId: string;
                                    kind: "mission" | "adjustment" | "recognition" | "prize" | "reversal" | "expiry" | "ots" | "purchase" | "gift" | "refund";
                                    /** @description Credits positive, debits negative */
                                    amount: number;
                                    /** @description The balance (available and pending) after this entry */
                                    balance: number;
                                    /** @description The completion, recognition, adjustment, code, order or gift reference, or the debit a refund gives back */
                                    reference: string;
                                    description: string | null;
                                    /** Format: date-time */
                                    postedAt: string;
                                    /** Format: date-time */
                                    availableAt: string;
                                };
                                balance: {
                                    /** @description Points that can be spent now */
                                    available: number;
                                    /** @description Points credited but held (holdDays) */
                                    pending: number;
                                    currency: string | null;
                                    conversionRate: number | null;
                                    availableValue: number | null;
                                };
                                duplicate: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                entry: {
                                    entryId: string;
                                    kind: "mission" | "adjustment" | "recognition" | "prize" | "reversal" | "expiry" | "ots" | "purchase" | "gift" | "refund";
                                    /** @description Credits positive, debits negative */
                                    amount: number;
                                    /** @description The balance (available and pending) after this entry */
                                    balance: number;
                                    /** @description The completion, recognition, adjustment, code, order or gift reference, or the debit a refund gives back */
                                    reference: string;
                                    description: string | null;
                                    /** Format: date-time */
                                    postedAt: string;
                                    /** Format: date-time */
                                    availableAt: string;
                                };
                                balance: {
                                    /** @description Points that can be spent now */
                                    available: number;
                                    /** @description Points credited but held (holdDays) */
                                    pending: number;
                                    currency: string | null;
                                    conversionRate: number | null;
                                    availableValue: number | null;
                                };
                                duplicate: boolean;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{userId}/award-debits/{entryId}/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give a debit back in full (201; 200 when it was given back before) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    userId: string;
                    entryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                entry: {
                                    entryId: string;
                                    kind: "mission" | "adjustment" | "recognition" | "prize" | "reversal" | "expiry" | "ots" | "purchase" | "gift" | "refund";
                                    /** @description Credits positive, debits negative */
                                    amount: number;
                                    /** @description The balance (available and pending) after this entry */
                                    balance: number;
                                    /** @description The completion, recognition, adjustment, code, order or gift reference, or the debit a refund gives back */
                                    reference: string;
                                    description: string | null;
                                    /** Format: date-time */
                                    postedAt: string;
                                    /** Format: date-time */
                                    availableAt: string;
                                };
                                balance: {
                                    /** @description Points that can be spent now */
                                    available: number;
                                    /** @description Points credited but held (holdDays) */
                                    pending: number;
                                    currency: string | null;
                                    conversionRate: number | null;
                                    availableValue: number | null;
                                };
                                duplicate: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                entry: {
                                    entryId: string;
                                    kind: "mission" | "adjustment" | "recognition" | "prize" | "reversal" | "expiry" | "ots" | "purchase" | "gift" | "refund";
                                    /** @description Credits positive, debits negative */
                                    amount: number;
                                    /** @description The balance (available and pending) after this entry */
                                    balance: number;
                                    /** @description The completion, recognition, adjustment, code, order or gift reference, or the debit a refund gives back */
                                    reference: string;
                                    description: string | null;
                                    /** Format: date-time */
                                    postedAt: string;
                                    /** Format: date-time */
                                    availableAt: string;
                                };
                                balance: {
                                    /** @description Points that can be spent now */
                                    available: number;
                                    /** @description Points credited but held (holdDays) */
                                    pending: number;
                                    currency: string | null;
                                    conversionRate: number | null;
                                    availableValue: number | null;
                                };
                                duplicate: boolean;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sites/{siteId}/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site's public keys, which verify marketplace sign-in tokens (a JWK set) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    siteId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Endpoints subscribed to event types */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                url: string;
                                eventTypes: string[];
                                description: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Subscribe an endpoint to event types that have no site URL */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description http or https */
                        url: string;
                        /** @description Any of level.changed, badge.earned, recognition.given, points.earned, points.expired, streak.extended, streak.frozen, streak.broken, leaderboard.closed */
                        eventTypes: string[];
                        description?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description http or https */
                        url: string;
                        /** @description Any of level.changed, badge.earned, recognition.given, points.earned, points.expired, streak.extended, streak.frozen, streak.broken, leaderboard.closed */
                        eventTypes: string[];
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                url: string;
                                eventTypes: string[];
                                description: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One endpoint */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    endpointId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                url: string;
                                eventTypes: string[];
                                description: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
            };
        };
        /** Replace an endpoint's URL, event types and description */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    endpointId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description http or https */
                        url: string;
                        /** @description Any of level.changed, badge.earned, recognition.given, points.earned, points.expired, streak.extended, streak.frozen, streak.broken, leaderboard.closed */
                        eventTypes: string[];
                        description?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description http or https */
                        url: string;
                        /** @description Any of level.changed, badge.earned, recognition.given, points.earned, points.expired, streak.extended, streak.frozen, streak.broken, leaderboard.closed */
                        eventTypes: string[];
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                url: string;
                                eventTypes: string[];
                                description: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove an endpoint (its pending deliveries end as dead) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    endpointId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhook deliveries, newest first (X-Total-Count has the total) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Items to skip (at most 10,000,000) */
                    offset?: number;
                    status?: "pending" | "delivered" | "dead";
                    eventType?: "mission.completed" | "level.changed" | "badge.earned" | "recognition.given" | "award.debited" | "points.earned" | "points.expired" | "streak.extended" | "streak.frozen" | "streak.broken" | "leaderboard.closed";
                    userId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                /** @description Also the webhook-id header: the same on every attempt */
                                eventId: string;
                                eventType: string;
                                userId?: string;
                                groupId?: string;
                                /** @description site:<setting> or endpoint:<id> */
                                destination: string;
                                status: "pending" | "delivered" | "dead";
                                attempts: number;
                                nextAttemptAt: string | null;
                                lastAttemptAt: string | null;
                                lastUrl: string | null;
                                lastStatus: number | null;
                                lastError: string | null;
                                deliveredAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhook-deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deliveryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                /** @description Also the webhook-id header: the same on every attempt */
                                eventId: string;
                                eventType: string;
                                userId?: string;
                                groupId?: string;
                                /** @description site:<setting> or endpoint:<id> */
                                destination: string;
                                status: "pending" | "delivered" | "dead";
                                attempts: number;
                                nextAttemptAt: string | null;
                                lastAttemptAt: string | null;
                                lastUrl: string | null;
                                lastStatus: number | null;
                                lastError: string | null;
                                deliveredAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhook-deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again, whatever its status, with a new 3-day retry window */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deliveryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                id: string;
                                /** @description Also the webhook-id header: the same on every attempt */
                                eventId: string;
                                eventType: string;
                                userId?: string;
                                groupId?: string;
                                /** @description site:<setting> or endpoint:<id> */
                                destination: string;
                                status: "pending" | "delivered" | "dead";
                                attempts: number;
                                nextAttemptAt: string | null;
                                lastAttemptAt: string | null;
                                lastUrl: string | null;
                                lastStatus: number | null;
                                lastError: string | null;
                                deliveredAt: string | null;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signing secret in full (created on first use) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description whsec_… (Standard Webhooks) */
                                secret: string;
                                previousSecretValidUntil: string | null;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhook-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret (given, or generated); the old one keeps signing beside it for 24 hours */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description whsec_ and 24–64 bytes in base64; generated when absent */
                        secret?: string;
                    };
                    "application/x-www-form-urlencoded": {
                        /** @description whsec_ and 24–64 bytes in base64; generated when absent */
                        secret?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response: {
                                /** @description whsec_… (Standard Webhooks) */
                                secret: string;
                                previousSecretValidUntil: string | null;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;

/** The stable `code` of a problem+json answer: the closed catalog of src/errors.ts (docs/errors.md). */
export type ErrorCode =
    | "validation_failed"
    | "malformed_body"
    | "malformed_request"
    | "malformed_xml"
    | "xml_forbidden"
    | "missing_token"
    | "invalid_token"
    | "token_expired"
    | "token_revoked"
    | "forbidden"
    | "origin_not_allowed"
    | "not_found"
    | "route_not_found"
    | "conflict"
    | "event_id_conflict"
    | "unknown_action"
    | "amount_out_of_range"
    | "program_invalid"
    | "unknown_exchange"
    | "unknown_category"
    | "exchange_closed"
    | "giver_not_eligible"
    | "self_recognition"
    | "too_many_recipients"
    | "points_out_of_range"
    | "recipient_not_eligible"
    | "budget_exceeded"
    | "quiz_closed"
    | "quiz_attempts_exhausted"
    | "quiz_already_passed"
    | "already_answered"
    | "unknown_marketplace"
    | "award_access_denied"
    | "insufficient_award_balance"
    | "ots_code_unknown"
    | "ots_code_expired"
    | "ots_code_used"
    | "ots_attempts_exceeded"
    | "request_timeout"
    | "payload_too_large"
    | "precondition_failed"
    | "uri_too_long"
    | "unsupported_media_type"
    | "range_not_satisfiable"
    | "rate_limited"
    | "restore_busy"
    | "headers_too_large"
    | "internal_error"
    | "shutting_down"
    | "maintenance";
