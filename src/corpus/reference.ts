/**
 * Reference data: the one place for role families, metros, industries, seniorities and skills.
 * It feeds the corpus generator, criteria validation, the job-description extractor and
 * GET /reference/*. (Filled in by the corpus work; the shapes below are the contract.)
 */
import { SENIORITIES, type Seniority } from '../domain/profile';

export { SENIORITIES };

export interface RoleFamily {
  /** snake_case id used in criteria, e.g. `software_engineering`. */
  id: string;
  label: string;
  /** Base titles without seniority words, e.g. "Backend Engineer". */
  titles: string[];
  /** Skills people of this family list (reference skill names). */
  skills: string[];
  /** Industries where this family is most common (reference industry names). */
  industries: string[];
  /** Related families (ids), used when broadening a search. */
  adjacent: string[];
}

export interface Metro {
  /** kebab-case id used in criteria, e.g. `san-francisco-bay-area`. */
  id: string;
  label: string;
  city: string;
  region: string;
  country: string;
  /** Other names a job description might use, e.g. "SF", "Bay Area". */
  aliases: string[];
  /** Nearby metro ids, used when broadening a search. */
  neighbors: string[];
}

// ---------------------------------------------------------------------------------------------
// Industries (LinkedIn-style names; commas and slashes avoided so lists can be comma-separated)
// ---------------------------------------------------------------------------------------------

const INDUSTRY_NAMES = [
  'Accounting', 'Airlines & Aviation', 'Alternative Dispute Resolution', 'Alternative Medicine',
  'Animation', 'Apparel & Fashion', 'Architecture & Planning', 'Artificial Intelligence',
  'Arts & Crafts', 'Automotive', 'Aviation & Aerospace', 'Banking', 'Biotechnology',
  'Broadcast Media', 'Building Materials', 'Business Supplies & Equipment', 'Capital Markets',
  'Chemicals', 'Civic & Social Organization', 'Civil Engineering', 'Commercial Real Estate',
  'Computer & Network Security', 'Computer Games', 'Computer Hardware', 'Computer Networking',
  'Construction', 'Consumer Electronics', 'Consumer Goods', 'Consumer Services', 'Cosmetics',
  'Dairy', 'Defense & Space', 'Design', 'E-Commerce', 'E-Learning', 'Education Management',
  'Electrical & Electronic Manufacturing', 'Entertainment', 'Environmental Services',
  'Events Services', 'Executive Office', 'Facilities Services', 'Farming', 'Financial Services',
  'Fine Art', 'Fishery', 'Food & Beverages', 'Food Production', 'Fund-Raising', 'Furniture',
  'Gambling & Casinos', 'Glass & Ceramics', 'Government Administration', 'Government Relations',
  'Graphic Design', 'Higher Education', 'Hospital & Health Care', 'Hospitality', 'Human Resources',
  'Import & Export', 'Individual & Family Services', 'Industrial Automation', 'Information Services',
  'Information Technology & Services', 'Insurance', 'International Affairs',
  'International Trade & Development', 'Internet', 'Investment Banking', 'Investment Management',
  'Judiciary', 'Law Enforcement', 'Law Practice', 'Legal Services', 'Legislative Office',
  'Libraries', 'Logistics & Supply Chain', 'Luxury Goods & Jewelry', 'Machinery',
  'Management Consulting', 'Maritime', 'Market Research', 'Marketing & Advertising',
  'Mechanical & Industrial Engineering', 'Media Production', 'Medical Devices', 'Medical Practice',
  'Mental Health Care', 'Military', 'Mining & Metals', 'Motion Pictures & Film',
  'Museums & Institutions', 'Music', 'Nanotechnology', 'Newspapers',
  'Non-Profit Organization Management', 'Oil & Energy', 'Online Media', 'Outsourcing & Offshoring',
  'Package & Freight Delivery', 'Packaging & Containers', 'Paper & Forest Products',
  'Performing Arts', 'Pharmaceuticals', 'Philanthropy', 'Photography', 'Plastics',
  'Political Organization', 'Primary & Secondary Education', 'Printing',
  'Professional Training & Coaching', 'Program Development', 'Public Policy',
  'Public Relations & Communications', 'Public Safety', 'Publishing', 'Railroad Manufacture',
  'Ranching', 'Real Estate', 'Recreational Facilities & Services', 'Religious Institutions',
  'Renewables & Environment', 'Research', 'Restaurants', 'Retail', 'Security & Investigations',
  'Semiconductors', 'Shipbuilding', 'Software Development', 'Sporting Goods', 'Sports',
  'Staffing & Recruiting', 'Supermarkets', 'Telecommunications', 'Textiles', 'Think Tanks',
  'Tobacco', 'Translation & Localization', 'Transportation & Trucking', 'Travel & Tourism',
  'Utilities', 'Venture Capital & Private Equity', 'Veterinary', 'Warehousing',
  'Wellness & Fitness', 'Wholesale', 'Wine & Spirits', 'Wireless', 'Writing & Editing',
];

/** Alphabetical (case-insensitive). */
export const INDUSTRIES: string[] = [...INDUSTRY_NAMES].sort(compareText);

/** Common spellings a job description or an older profile might use. */
const INDUSTRY_ALIASES: Record<string, string> = {
  'computer software': 'Software Development',
  software: 'Software Development',
  saas: 'Software Development',
  'information technology': 'Information Technology & Services',
  'it services': 'Information Technology & Services',
  'it services & it consulting': 'Information Technology & Services',
  healthcare: 'Hospital & Health Care',
  'health care': 'Hospital & Health Care',
  'hospitals & health care': 'Hospital & Health Care',
  fintech: 'Financial Services',
  insurtech: 'Insurance',
  proptech: 'Real Estate',
  edtech: 'E-Learning',
  ecommerce: 'E-Commerce',
  'e commerce': 'E-Commerce',
  ai: 'Artificial Intelligence',
  'machine learning': 'Artificial Intelligence',
  cybersecurity: 'Computer & Network Security',
  'cyber security': 'Computer & Network Security',
  pharma: 'Pharmaceuticals',
  biotech: 'Biotechnology',
  gaming: 'Computer Games',
  'video games': 'Computer Games',
  consulting: 'Management Consulting',
  logistics: 'Logistics & Supply Chain',
  aerospace: 'Aviation & Aerospace',
  'renewable energy': 'Renewables & Environment',
  cleantech: 'Renewables & Environment',
  legal: 'Legal Services',
  staffing: 'Staffing & Recruiting',
  recruiting: 'Staffing & Recruiting',
  advertising: 'Marketing & Advertising',
  telecom: 'Telecommunications',
  nonprofit: 'Non-Profit Organization Management',
  'non-profit': 'Non-Profit Organization Management',
  government: 'Government Administration',
  education: 'Education Management',
  travel: 'Travel & Tourism',
  'leisure & travel & tourism': 'Travel & Tourism',
  'leisure, travel & tourism': 'Travel & Tourism',
  'health, wellness & fitness': 'Wellness & Fitness',
  'glass, ceramics & concrete': 'Glass & Ceramics',
  'transportation & trucking & railroad': 'Transportation & Trucking',
  'mechanical or industrial engineering': 'Mechanical & Industrial Engineering',
  semiconductor: 'Semiconductors',
};

// ---------------------------------------------------------------------------------------------
// Role families (one block each). `area`, `chiefs` etc. only drive title building and are
// stripped from the exported objects.
// ---------------------------------------------------------------------------------------------

interface FamilyDef extends RoleFamily {
  /** Department name used in management titles ("Director of <area>"). */
  area: string;
  chiefs: string[];
  juniorWords?: string[];
  leadWords?: string[];
  /** Uses "II"-style levels for mid. */
  levels?: boolean;
  internTitles?: string[];
  managerTitles?: string[];
  directorTitles?: string[];
  vpTitles?: string[];
}

const FAMILY_DEFS: FamilyDef[] = [
  {
    id: 'software_engineering',
    label: 'Software Engineering',
    titles: ['Software Engineer', 'Backend Engineer', 'Frontend Engineer', 'Full Stack Engineer', 'Mobile Engineer', 'Software Developer', 'Web Developer', 'Embedded Software Engineer'],
    skills: ['TypeScript', 'JavaScript', 'Python', 'Java', 'Go', 'C#', 'C++', 'Rust', 'Kotlin', 'Swift', 'Node.js', 'React', 'Angular', 'Vue.js', 'Spring Boot', '.NET', 'Django', 'GraphQL', 'REST APIs', 'PostgreSQL', 'MySQL', 'MongoDB', 'Redis', 'Docker', 'Kubernetes', 'AWS', 'Git', 'Microservices', 'System Design', 'Unit Testing'],
    industries: ['Software Development', 'Internet', 'Information Technology & Services', 'Financial Services', 'Computer Games', 'E-Commerce', 'Telecommunications', 'Computer Hardware'],
    adjacent: ['devops_sre', 'qa_testing', 'data_engineering'],
    area: 'Engineering',
    chiefs: ['Chief Technology Officer', 'CTO'],
    leadWords: ['Staff', 'Principal', 'Lead'],
    levels: true,
    managerTitles: ['Engineering Manager', 'Software Engineering Manager', 'Manager of Software Engineering'],
  },
  {
    id: 'data_science',
    label: 'Data Science',
    titles: ['Data Scientist', 'Machine Learning Engineer', 'Data Analyst', 'Applied Scientist', 'Research Scientist', 'Business Intelligence Analyst', 'Quantitative Analyst'],
    skills: ['Python', 'R', 'SQL', 'pandas', 'NumPy', 'scikit-learn', 'PyTorch', 'TensorFlow', 'Machine Learning', 'Deep Learning', 'Statistics', 'A/B Testing', 'Natural Language Processing', 'Computer Vision', 'Tableau', 'Power BI', 'Jupyter', 'Apache Spark', 'Data Visualization', 'Time Series Analysis', 'Experimental Design', 'Looker', 'XGBoost', 'MLflow', 'Large Language Models'],
    industries: ['Software Development', 'Internet', 'Financial Services', 'Research', 'Artificial Intelligence', 'Insurance', 'Market Research', 'Biotechnology'],
    adjacent: ['data_engineering', 'software_engineering'],
    area: 'Data Science',
    chiefs: ['Chief Data Officer', 'Chief Analytics Officer'],
    leadWords: ['Staff', 'Principal', 'Lead'],
    levels: true,
  },
  {
    id: 'data_engineering',
    label: 'Data Engineering',
    titles: ['Data Engineer', 'Analytics Engineer', 'Big Data Engineer', 'ETL Developer', 'Data Platform Engineer', 'Data Warehouse Engineer'],
    skills: ['SQL', 'Python', 'Scala', 'Apache Spark', 'Apache Kafka', 'Apache Airflow', 'dbt', 'Snowflake', 'BigQuery', 'Amazon Redshift', 'Databricks', 'Hadoop', 'Hive', 'ETL', 'Data Modeling', 'Data Warehousing', 'PostgreSQL', 'AWS', 'Google Cloud', 'Azure', 'Terraform', 'Docker', 'Kubernetes', 'Apache Flink', 'Delta Lake', 'Fivetran', 'Data Governance'],
    industries: ['Software Development', 'Internet', 'Financial Services', 'Information Technology & Services', 'E-Commerce', 'Telecommunications', 'Retail'],
    adjacent: ['data_science', 'software_engineering', 'devops_sre'],
    area: 'Data Engineering',
    chiefs: ['Chief Data Officer'],
    leadWords: ['Staff', 'Principal', 'Lead'],
    levels: true,
  },
  {
    id: 'product_management',
    label: 'Product Management',
    titles: ['Product Manager', 'Technical Product Manager', 'Product Owner', 'Growth Product Manager', 'Platform Product Manager', 'Product Analyst'],
    skills: ['Product Strategy', 'Roadmapping', 'User Research', 'Agile', 'Scrum', 'Jira', 'Confluence', 'A/B Testing', 'SQL', 'Product Analytics', 'Amplitude', 'Mixpanel', 'Stakeholder Management', 'Go-to-Market Strategy', 'Product Discovery', 'Wireframing', 'Figma', 'OKRs', 'Market Research', 'Pricing Strategy', 'User Stories', 'Data Analysis'],
    industries: ['Software Development', 'Internet', 'Financial Services', 'E-Commerce', 'Consumer Electronics', 'Information Technology & Services', 'Computer Games'],
    adjacent: ['project_management', 'design', 'software_engineering'],
    area: 'Product',
    chiefs: ['Chief Product Officer', 'CPO'],
    juniorWords: ['Associate', 'Junior'],
    leadWords: ['Principal', 'Lead', 'Staff'],
    managerTitles: ['Manager, Product Management', 'Manager of Product Management'],
  },
  {
    id: 'project_management',
    label: 'Project & Program Management',
    titles: ['Project Manager', 'Program Manager', 'Technical Program Manager', 'Scrum Master', 'Delivery Manager', 'Project Coordinator', 'Agile Coach'],
    skills: ['Project Planning', 'Agile', 'Scrum', 'Kanban', 'Jira', 'Confluence', 'Risk Management', 'Stakeholder Management', 'Budgeting', 'Microsoft Project', 'Smartsheet', 'Asana', 'Resource Planning', 'Change Management', 'Waterfall', 'SAFe', 'Program Management', 'Vendor Management', 'Status Reporting', 'Dependency Management', 'Release Planning'],
    industries: ['Information Technology & Services', 'Management Consulting', 'Construction', 'Financial Services', 'Software Development', 'Telecommunications', 'Defense & Space'],
    adjacent: ['product_management', 'operations'],
    area: 'Program Management',
    chiefs: ['Chief Operating Officer', 'Chief Transformation Officer'],
    leadWords: ['Lead', 'Principal'],
    managerTitles: ['PMO Manager', 'Manager of Program Management'],
    directorTitles: ['Director of Program Management', 'Head of Program Management', 'Director of the PMO'],
  },
  {
    id: 'design',
    label: 'Design',
    titles: ['Product Designer', 'UX Designer', 'UI Designer', 'UX Researcher', 'Visual Designer', 'Interaction Designer', 'Graphic Designer', 'Content Designer'],
    skills: ['Figma', 'Sketch', 'Adobe XD', 'Adobe Photoshop', 'Adobe Illustrator', 'Prototyping', 'Wireframing', 'User Research', 'Usability Testing', 'Interaction Design', 'Design Systems', 'Visual Design', 'Information Architecture', 'Accessibility', 'Typography', 'Journey Mapping', 'InVision', 'Adobe After Effects', 'HTML', 'CSS', 'Design Thinking'],
    industries: ['Software Development', 'Internet', 'Design', 'Marketing & Advertising', 'E-Commerce', 'Computer Games', 'Graphic Design', 'Consumer Electronics'],
    adjacent: ['product_management', 'marketing'],
    area: 'Design',
    chiefs: ['Chief Design Officer'],
    leadWords: ['Lead', 'Principal', 'Staff'],
    managerTitles: ['Design Manager', 'UX Design Manager', 'Manager of Design'],
  },
  {
    id: 'devops_sre',
    label: 'DevOps & Site Reliability',
    titles: ['DevOps Engineer', 'Site Reliability Engineer', 'Platform Engineer', 'Cloud Engineer', 'Infrastructure Engineer', 'Systems Engineer', 'Release Engineer'],
    skills: ['Kubernetes', 'Docker', 'Terraform', 'AWS', 'Azure', 'Google Cloud', 'Linux', 'Bash', 'Python', 'Go', 'Ansible', 'Jenkins', 'GitHub Actions', 'GitLab CI', 'Prometheus', 'Grafana', 'Helm', 'CI/CD', 'Incident Management', 'Observability', 'Datadog', 'Networking', 'Argo CD', 'Puppet', 'Nginx', 'Infrastructure as Code'],
    industries: ['Software Development', 'Internet', 'Information Technology & Services', 'Financial Services', 'Telecommunications', 'Computer & Network Security'],
    adjacent: ['software_engineering', 'security', 'data_engineering'],
    area: 'Infrastructure',
    chiefs: ['Chief Technology Officer', 'Chief Information Officer'],
    leadWords: ['Staff', 'Principal', 'Lead'],
    levels: true,
    managerTitles: ['Infrastructure Manager', 'Site Reliability Engineering Manager', 'Manager of Platform Engineering'],
  },
  {
    id: 'security',
    label: 'Security',
    titles: ['Security Engineer', 'Security Analyst', 'Application Security Engineer', 'Penetration Tester', 'Cloud Security Engineer', 'SOC Analyst', 'Security Architect'],
    skills: ['Penetration Testing', 'Threat Modeling', 'SIEM', 'Splunk', 'Vulnerability Management', 'Incident Response', 'Network Security', 'Cloud Security', 'Identity & Access Management', 'OWASP', 'Burp Suite', 'Wireshark', 'Metasploit', 'Python', 'Linux', 'AWS', 'ISO 27001', 'SOC 2', 'NIST Cybersecurity Framework', 'Cryptography', 'Zero Trust', 'Endpoint Security', 'Security Operations', 'Kali Linux'],
    industries: ['Computer & Network Security', 'Information Technology & Services', 'Financial Services', 'Banking', 'Defense & Space', 'Software Development', 'Government Administration'],
    adjacent: ['devops_sre', 'software_engineering'],
    area: 'Security',
    chiefs: ['Chief Information Security Officer', 'CISO'],
    leadWords: ['Lead', 'Principal', 'Staff'],
    levels: true,
    managerTitles: ['Security Manager', 'Security Engineering Manager', 'Manager of Information Security'],
  },
  {
    id: 'qa_testing',
    label: 'QA & Testing',
    titles: ['QA Engineer', 'Software Test Engineer', 'Test Automation Engineer', 'SDET', 'QA Analyst', 'Quality Engineer'],
    skills: ['Test Automation', 'Selenium', 'Cypress', 'Playwright', 'Appium', 'JUnit', 'TestNG', 'pytest', 'Postman', 'Jira', 'TestRail', 'Manual Testing', 'Regression Testing', 'Performance Testing', 'JMeter', 'API Testing', 'BDD', 'Cucumber', 'Java', 'Python', 'JavaScript', 'CI/CD', 'Test Planning', 'SQL'],
    industries: ['Software Development', 'Information Technology & Services', 'Computer Games', 'Financial Services', 'Medical Devices', 'Telecommunications'],
    adjacent: ['software_engineering', 'devops_sre'],
    area: 'Quality Engineering',
    chiefs: ['Chief Quality Officer'],
    leadWords: ['Lead', 'Principal'],
    levels: true,
    managerTitles: ['QA Manager', 'Quality Assurance Manager', 'Manager of Quality Engineering'],
  },
  {
    id: 'sales',
    label: 'Sales',
    titles: ['Account Executive', 'Account Manager', 'Sales Development Representative', 'Business Development Representative', 'Sales Engineer', 'Enterprise Account Executive', 'Sales Representative', 'Solutions Consultant'],
    skills: ['Salesforce', 'HubSpot', 'Prospecting', 'Cold Calling', 'Negotiation', 'Account Management', 'Pipeline Management', 'Lead Generation', 'B2B Sales', 'SaaS Sales', 'Enterprise Sales', 'Solution Selling', 'MEDDIC', 'Sales Forecasting', 'Outreach', 'LinkedIn Sales Navigator', 'Gong', 'Closing', 'Territory Management', 'CRM', 'Consultative Selling', 'Product Demonstrations', 'Relationship Building'],
    industries: ['Software Development', 'Information Technology & Services', 'Telecommunications', 'Medical Devices', 'Pharmaceuticals', 'Wholesale', 'Staffing & Recruiting', 'Insurance'],
    adjacent: ['customer_success', 'marketing'],
    area: 'Sales',
    chiefs: ['Chief Revenue Officer', 'CRO', 'Chief Sales Officer'],
    juniorWords: ['Junior', 'Associate'],
    leadWords: ['Lead', 'Principal'],
    managerTitles: ['Sales Manager', 'Regional Sales Manager', 'Manager of Sales Development'],
  },
  {
    id: 'marketing',
    label: 'Marketing',
    titles: ['Marketing Specialist', 'Digital Marketing Specialist', 'Content Marketer', 'Product Marketing Manager', 'Growth Marketer', 'SEO Specialist', 'Brand Manager', 'Marketing Analyst'],
    skills: ['SEO', 'SEM', 'Google Ads', 'Google Analytics', 'Content Marketing', 'Email Marketing', 'Marketing Automation', 'HubSpot', 'Marketo', 'Social Media Marketing', 'Copywriting', 'Brand Strategy', 'Product Marketing', 'Demand Generation', 'Account-Based Marketing', 'Campaign Management', 'Market Research', 'Adobe Creative Suite', 'Meta Ads', 'Conversion Rate Optimization', 'Marketing Analytics', 'Public Relations', 'Salesforce', 'Go-to-Market Strategy', 'WordPress'],
    industries: ['Marketing & Advertising', 'Software Development', 'Consumer Goods', 'Retail', 'E-Commerce', 'Internet', 'Food & Beverages', 'Public Relations & Communications'],
    adjacent: ['sales', 'design', 'product_management'],
    area: 'Marketing',
    chiefs: ['Chief Marketing Officer', 'CMO'],
    juniorWords: ['Junior', 'Associate'],
    leadWords: ['Lead'],
    managerTitles: ['Marketing Manager', 'Manager of Marketing', 'Demand Generation Manager'],
  },
  {
    id: 'customer_success',
    label: 'Customer Success & Support',
    titles: ['Customer Success Manager', 'Customer Support Specialist', 'Technical Support Engineer', 'Implementation Specialist', 'Onboarding Specialist', 'Customer Experience Specialist'],
    skills: ['Customer Success', 'Customer Support', 'Zendesk', 'Intercom', 'Salesforce', 'Gainsight', 'Onboarding', 'Account Management', 'Customer Retention', 'Churn Reduction', 'Renewals', 'Upselling', 'Technical Support', 'Troubleshooting', 'Jira', 'SQL', 'Customer Experience', 'Net Promoter Score', 'Customer Education', 'Freshdesk', 'ServiceNow', 'Escalation Management', 'Relationship Building'],
    industries: ['Software Development', 'Internet', 'Information Technology & Services', 'Financial Services', 'Telecommunications', 'E-Commerce'],
    adjacent: ['sales', 'operations'],
    area: 'Customer Success',
    chiefs: ['Chief Customer Officer'],
    juniorWords: ['Junior', 'Associate'],
    leadWords: ['Lead'],
    managerTitles: ['Manager, Customer Success', 'Customer Support Manager', 'Manager of Customer Success'],
  },
  {
    id: 'finance',
    label: 'Finance',
    titles: ['Financial Analyst', 'FP&A Analyst', 'Investment Analyst', 'Treasury Analyst', 'Corporate Development Analyst', 'Credit Analyst', 'Risk Analyst'],
    skills: ['Financial Modeling', 'Financial Analysis', 'FP&A', 'Budgeting', 'Forecasting', 'Excel', 'Valuation', 'DCF Analysis', 'Variance Analysis', 'SQL', 'Power BI', 'Tableau', 'SAP', 'Oracle Financials', 'Anaplan', 'Adaptive Insights', 'Hyperion', 'Corporate Finance', 'Mergers & Acquisitions', 'Treasury Management', 'Risk Management', 'Bloomberg Terminal', 'Investor Relations', 'Cash Flow Management', 'Python'],
    industries: ['Financial Services', 'Banking', 'Investment Management', 'Investment Banking', 'Venture Capital & Private Equity', 'Insurance', 'Capital Markets', 'Software Development'],
    adjacent: ['accounting', 'operations'],
    area: 'Finance',
    chiefs: ['Chief Financial Officer', 'CFO'],
    juniorWords: ['Junior', 'Associate'],
    leadWords: ['Lead', 'Principal'],
    managerTitles: ['Finance Manager', 'FP&A Manager', 'Manager of Financial Planning & Analysis'],
  },
  {
    id: 'accounting',
    label: 'Accounting',
    titles: ['Accountant', 'Tax Accountant', 'Auditor', 'Bookkeeper', 'Accounts Payable Specialist', 'Payroll Specialist', 'Cost Accountant', 'Revenue Accountant'],
    skills: ['GAAP', 'IFRS', 'Accounts Payable', 'Accounts Receivable', 'General Ledger', 'Month-End Close', 'Reconciliation', 'Financial Reporting', 'Auditing', 'Tax Preparation', 'QuickBooks', 'NetSuite', 'SAP', 'Xero', 'Excel', 'Sarbanes-Oxley', 'Payroll', 'Revenue Recognition', 'Cost Accounting', 'Budgeting', 'Internal Controls', 'Oracle Financials', 'Intercompany Accounting', 'Fixed Assets', 'Bookkeeping'],
    industries: ['Accounting', 'Financial Services', 'Banking', 'Retail', 'Real Estate', 'Hospital & Health Care', 'Construction'],
    adjacent: ['finance'],
    area: 'Accounting',
    chiefs: ['Chief Accounting Officer'],
    juniorWords: ['Junior', 'Associate'],
    leadWords: ['Lead'],
    managerTitles: ['Accounting Manager', 'Manager of Accounting', 'Audit Manager'],
  },
  {
    id: 'hr_people',
    label: 'HR & People',
    titles: ['HR Generalist', 'HR Business Partner', 'People Operations Specialist', 'Compensation Analyst', 'Benefits Specialist', 'HR Coordinator', 'Learning & Development Specialist', 'HRIS Analyst'],
    skills: ['Workday', 'HRIS', 'Employee Relations', 'Performance Management', 'Compensation & Benefits', 'Onboarding', 'HR Policies', 'Employment Law', 'Talent Management', 'Learning & Development', 'Succession Planning', 'Organizational Development', 'Change Management', 'BambooHR', 'ADP', 'SAP SuccessFactors', 'People Analytics', 'Employee Engagement', 'Diversity & Inclusion', 'Payroll', 'Workforce Planning', 'Conflict Resolution'],
    industries: ['Human Resources', 'Staffing & Recruiting', 'Software Development', 'Hospital & Health Care', 'Retail', 'Financial Services', 'Education Management'],
    adjacent: ['recruiting', 'operations'],
    area: 'People',
    chiefs: ['Chief People Officer', 'Chief Human Resources Officer', 'CHRO'],
    juniorWords: ['Junior', 'Associate'],
    leadWords: ['Lead'],
    managerTitles: ['HR Manager', 'People Operations Manager', 'Manager of Human Resources'],
  },
  {
    id: 'recruiting',
    label: 'Recruiting & Talent Acquisition',
    titles: ['Recruiter', 'Technical Recruiter', 'Talent Acquisition Specialist', 'Sourcer', 'Recruiting Coordinator', 'Executive Recruiter', 'Campus Recruiter'],
    skills: ['Technical Recruiting', 'Sourcing', 'Boolean Search', 'LinkedIn Recruiter', 'Greenhouse', 'Lever', 'Workday', 'Applicant Tracking Systems', 'Interviewing', 'Candidate Experience', 'Employer Branding', 'Full-Cycle Recruiting', 'Executive Search', 'Offer Negotiation', 'Talent Mapping', 'Diversity Recruiting', 'Campus Recruiting', 'Recruitment Marketing', 'Stakeholder Management', 'Onboarding', 'Workforce Planning'],
    industries: ['Staffing & Recruiting', 'Human Resources', 'Software Development', 'Information Technology & Services', 'Hospital & Health Care', 'Financial Services'],
    adjacent: ['hr_people', 'sales'],
    area: 'Talent Acquisition',
    chiefs: ['Chief Talent Officer'],
    juniorWords: ['Junior', 'Associate'],
    leadWords: ['Lead'],
    managerTitles: ['Recruiting Manager', 'Talent Acquisition Manager', 'Manager of Talent Acquisition'],
  },
  {
    id: 'legal',
    label: 'Legal & Compliance',
    titles: ['Attorney', 'Corporate Counsel', 'Legal Counsel', 'Paralegal', 'Contracts Specialist', 'Compliance Analyst', 'Privacy Counsel', 'Litigation Attorney'],
    skills: ['Contract Negotiation', 'Contract Drafting', 'Corporate Law', 'Commercial Law', 'Litigation', 'Legal Research', 'Regulatory Compliance', 'GDPR', 'Data Privacy', 'Intellectual Property', 'Employment Law', 'Mergers & Acquisitions', 'Due Diligence', 'Westlaw', 'LexisNexis', 'Legal Writing', 'Securities Law', 'Compliance', 'Dispute Resolution', 'Risk Management', 'Corporate Governance', 'E-Discovery', 'Licensing'],
    industries: ['Law Practice', 'Legal Services', 'Financial Services', 'Software Development', 'Government Administration', 'Pharmaceuticals', 'Insurance', 'Real Estate'],
    adjacent: ['hr_people', 'finance'],
    area: 'Legal',
    chiefs: ['Chief Legal Officer', 'Chief Compliance Officer'],
    juniorWords: ['Associate', 'Junior'],
    leadWords: ['Lead'],
    managerTitles: ['Legal Manager', 'Legal Operations Manager', 'Manager of Legal Affairs'],
  },
  {
    id: 'operations',
    label: 'Operations',
    titles: ['Operations Analyst', 'Business Operations Analyst', 'Operations Specialist', 'Operations Coordinator', 'Business Analyst', 'Strategy Analyst', 'Revenue Operations Analyst'],
    skills: ['Process Improvement', 'Operations Management', 'Lean Six Sigma', 'Project Management', 'Excel', 'SQL', 'Tableau', 'Data Analysis', 'Business Analysis', 'KPI Tracking', 'Vendor Management', 'Budgeting', 'Salesforce', 'Change Management', 'Cross-Functional Leadership', 'Strategic Planning', 'Business Process Mapping', 'Revenue Operations', 'Workflow Automation', 'Forecasting', 'Google Sheets', 'Looker'],
    industries: ['Logistics & Supply Chain', 'Retail', 'Software Development', 'Financial Services', 'Hospitality', 'Management Consulting', 'Transportation & Trucking', 'Consumer Goods'],
    adjacent: ['supply_chain', 'project_management', 'finance'],
    area: 'Operations',
    chiefs: ['Chief Operating Officer', 'COO'],
    juniorWords: ['Junior', 'Associate'],
    leadWords: ['Lead'],
    managerTitles: ['Operations Manager', 'Business Operations Manager', 'Manager of Operations'],
  },
  {
    id: 'supply_chain',
    label: 'Supply Chain & Procurement',
    titles: ['Supply Chain Analyst', 'Buyer', 'Procurement Specialist', 'Logistics Coordinator', 'Demand Planner', 'Inventory Analyst', 'Sourcing Specialist'],
    skills: ['Supply Chain Management', 'Procurement', 'Logistics', 'Inventory Management', 'Demand Planning', 'S&OP', 'SAP', 'Oracle SCM', 'Vendor Management', 'Strategic Sourcing', 'Negotiation', 'Warehouse Management', 'Transportation Management', 'Lean Manufacturing', 'Lean Six Sigma', 'Excel', 'ERP', 'Forecasting', 'Purchasing', 'Customs Compliance', 'Distribution', 'Supplier Relationship Management', 'MRP'],
    industries: ['Logistics & Supply Chain', 'Retail', 'Consumer Goods', 'Automotive', 'Food Production', 'Wholesale', 'Warehousing', 'Import & Export'],
    adjacent: ['operations', 'mechanical_engineering'],
    area: 'Supply Chain',
    chiefs: ['Chief Supply Chain Officer', 'Chief Procurement Officer'],
    juniorWords: ['Junior', 'Associate'],
    leadWords: ['Lead'],
    managerTitles: ['Supply Chain Manager', 'Procurement Manager', 'Logistics Manager'],
  },
  {
    id: 'healthcare_nursing',
    label: 'Nursing',
    titles: ['Registered Nurse', 'Nurse Practitioner', 'Clinical Nurse Specialist', 'ICU Nurse', 'Emergency Room Nurse', 'Pediatric Nurse', 'Licensed Practical Nurse', 'Travel Nurse'],
    skills: ['Patient Care', 'Patient Assessment', 'Medication Administration', 'Electronic Medical Records', 'Epic Systems', 'Cerner', 'Basic Life Support', 'Advanced Cardiac Life Support', 'Critical Care', 'Emergency Nursing', 'Pediatrics', 'IV Therapy', 'Wound Care', 'Care Planning', 'Patient Education', 'Infection Control', 'Triage', 'Vital Signs Monitoring', 'Telemetry', 'HIPAA', 'Phlebotomy', 'Clinical Documentation'],
    industries: ['Hospital & Health Care', 'Medical Practice', 'Mental Health Care', 'Individual & Family Services'],
    adjacent: ['operations'],
    area: 'Nursing',
    chiefs: ['Chief Nursing Officer'],
    juniorWords: ['Graduate'],
    leadWords: ['Lead'],
    internTitles: ['Nursing Intern', 'Student Nurse'],
    managerTitles: ['Nurse Manager', 'Clinical Nurse Manager', 'Manager of Nursing'],
    directorTitles: ['Director of Nursing', 'Director of Patient Care Services'],
    vpTitles: ['VP of Nursing', 'Vice President of Patient Care Services'],
  },
  {
    id: 'mechanical_engineering',
    label: 'Mechanical Engineering',
    titles: ['Mechanical Engineer', 'Design Engineer', 'Manufacturing Engineer', 'Product Design Engineer', 'HVAC Engineer', 'Process Engineer', 'Reliability Engineer'],
    skills: ['SolidWorks', 'AutoCAD', 'CATIA', 'Siemens NX', 'Creo', 'ANSYS', 'Finite Element Analysis', 'Computational Fluid Dynamics', 'GD&T', 'MATLAB', 'Thermodynamics', 'Heat Transfer', 'Product Design', 'Design for Manufacturing', 'Prototyping', '3D Printing', 'Root Cause Analysis', 'Lean Manufacturing', 'Six Sigma', 'HVAC', 'Materials Science', 'PLM', 'Tolerance Analysis', 'Fluid Mechanics'],
    industries: ['Mechanical & Industrial Engineering', 'Automotive', 'Aviation & Aerospace', 'Machinery', 'Industrial Automation', 'Defense & Space', 'Oil & Energy', 'Medical Devices'],
    adjacent: ['electrical_engineering', 'supply_chain'],
    area: 'Mechanical Engineering',
    chiefs: ['Chief Engineer', 'Chief Technology Officer'],
    juniorWords: ['Junior', 'Graduate'],
    leadWords: ['Lead', 'Principal', 'Staff'],
    managerTitles: ['Mechanical Engineering Manager', 'Manager of Mechanical Engineering', 'Manufacturing Engineering Manager'],
  },
  {
    id: 'electrical_engineering',
    label: 'Electrical Engineering',
    titles: ['Electrical Engineer', 'Electronics Engineer', 'Hardware Engineer', 'Power Systems Engineer', 'Controls Engineer', 'PCB Design Engineer', 'RF Engineer', 'Firmware Engineer'],
    skills: ['Circuit Design', 'PCB Design', 'Altium Designer', 'Cadence', 'OrCAD', 'MATLAB', 'Simulink', 'LabVIEW', 'Embedded Systems', 'Embedded C', 'FPGA', 'Verilog', 'VHDL', 'Power Electronics', 'Analog Design', 'Signal Processing', 'PLC Programming', 'Control Systems', 'Oscilloscope', 'RF Design', 'Power Systems', 'SPICE', 'Microcontrollers', 'AutoCAD Electrical'],
    industries: ['Electrical & Electronic Manufacturing', 'Semiconductors', 'Consumer Electronics', 'Utilities', 'Renewables & Environment', 'Automotive', 'Telecommunications', 'Industrial Automation'],
    adjacent: ['mechanical_engineering', 'software_engineering'],
    area: 'Electrical Engineering',
    chiefs: ['Chief Engineer', 'Chief Technology Officer'],
    juniorWords: ['Junior', 'Graduate'],
    leadWords: ['Lead', 'Principal', 'Staff'],
    managerTitles: ['Electrical Engineering Manager', 'Hardware Engineering Manager', 'Manager of Electrical Engineering'],
  },
];

export const ROLE_FAMILIES: RoleFamily[] = FAMILY_DEFS.map((f) => ({
  id: f.id,
  label: f.label,
  titles: f.titles,
  skills: f.skills,
  industries: f.industries,
  adjacent: f.adjacent,
}));

/** Every skill any family lists, unique, sorted case-insensitively. */
export const SKILLS: string[] = [...new Set(ROLE_FAMILIES.flatMap((f) => f.skills))].sort(compareText);

/** Common short forms; targets are reference skill names (checked by the unit test). */
const SKILL_ALIASES: Record<string, string> = {
  js: 'JavaScript',
  ts: 'TypeScript',
  golang: 'Go',
  k8s: 'Kubernetes',
  postgres: 'PostgreSQL',
  node: 'Node.js',
  nodejs: 'Node.js',
  'node js': 'Node.js',
  reactjs: 'React',
  'react.js': 'React',
  vue: 'Vue.js',
  vuejs: 'Vue.js',
  gcp: 'Google Cloud',
  'google cloud platform': 'Google Cloud',
  'amazon web services': 'AWS',
  'microsoft excel': 'Excel',
  'ms excel': 'Excel',
  sfdc: 'Salesforce',
  ml: 'Machine Learning',
  nlp: 'Natural Language Processing',
  llm: 'Large Language Models',
  llms: 'Large Language Models',
  spark: 'Apache Spark',
  pyspark: 'Apache Spark',
  kafka: 'Apache Kafka',
  airflow: 'Apache Airflow',
  flink: 'Apache Flink',
  sklearn: 'scikit-learn',
  cicd: 'CI/CD',
  'ci cd': 'CI/CD',
  iac: 'Infrastructure as Code',
  dotnet: '.NET',
  csharp: 'C#',
  cpp: 'C++',
  ga4: 'Google Analytics',
  emr: 'Electronic Medical Records',
  ehr: 'Electronic Medical Records',
  epic: 'Epic Systems',
  acls: 'Advanced Cardiac Life Support',
  bls: 'Basic Life Support',
  fea: 'Finite Element Analysis',
  cfd: 'Computational Fluid Dynamics',
  sox: 'Sarbanes-Oxley',
  'us gaap': 'GAAP',
  'm&a': 'Mergers & Acquisitions',
  ats: 'Applicant Tracking Systems',
  iam: 'Identity & Access Management',
  pentesting: 'Penetration Testing',
  'pen testing': 'Penetration Testing',
  'power bi desktop': 'Power BI',
  'a/b tests': 'A/B Testing',
};

// ---------------------------------------------------------------------------------------------
// Metros
// ---------------------------------------------------------------------------------------------

function metro(
  id: string,
  label: string,
  city: string,
  region: string,
  country: string,
  aliases: string[],
  neighbors: string[],
): Metro {
  return { id, label, city, region, country, aliases, neighbors };
}

const US = 'United States';

export const METROS: Metro[] = [
  // United States
  metro('san-francisco-bay-area', 'San Francisco Bay Area', 'San Francisco', 'California', US, ['SF', 'Bay Area', 'SF Bay Area', 'Oakland', 'San Mateo', 'Greater San Francisco'], ['san-jose', 'sacramento']),
  metro('san-jose', 'San Jose', 'San Jose', 'California', US, ['Silicon Valley', 'South Bay', 'Santa Clara', 'Sunnyvale', 'Mountain View', 'Palo Alto', 'Cupertino'], ['san-francisco-bay-area', 'sacramento']),
  metro('sacramento', 'Greater Sacramento', 'Sacramento', 'California', US, ['Sac', 'Roseville'], ['san-francisco-bay-area', 'san-jose']),
  metro('los-angeles', 'Greater Los Angeles', 'Los Angeles', 'California', US, ['LA', 'L.A.', 'Santa Monica', 'Irvine', 'Orange County', 'Pasadena', 'Long Beach'], ['san-diego', 'las-vegas']),
  metro('san-diego', 'San Diego', 'San Diego', 'California', US, ['San Diego County', 'La Jolla'], ['los-angeles', 'phoenix']),
  metro('seattle', 'Greater Seattle Area', 'Seattle', 'Washington', US, ['Bellevue', 'Redmond', 'Kirkland', 'Tacoma', 'Puget Sound'], ['portland', 'vancouver']),
  metro('portland', 'Portland', 'Portland', 'Oregon', US, ['PDX', 'Beaverton', 'Hillsboro'], ['seattle', 'vancouver']),
  metro('new-york-city', 'New York City', 'New York', 'New York', US, ['NYC', 'NY', 'Manhattan', 'Brooklyn', 'New York City Metropolitan Area', 'Jersey City', 'Hoboken'], ['philadelphia', 'boston']),
  metro('boston', 'Greater Boston', 'Boston', 'Massachusetts', US, ['Cambridge', 'Somerville', 'Waltham'], ['new-york-city']),
  metro('philadelphia', 'Philadelphia', 'Philadelphia', 'Pennsylvania', US, ['Philly'], ['new-york-city', 'baltimore']),
  metro('washington-dc', 'Washington, D.C.', 'Washington', 'District of Columbia', US, ['DC', 'D.C.', 'Washington DC', 'Washington D.C.', 'DMV', 'Arlington', 'Northern Virginia', 'NoVA', 'Reston', 'Bethesda'], ['baltimore', 'philadelphia']),
  metro('baltimore', 'Baltimore', 'Baltimore', 'Maryland', US, ['Towson'], ['washington-dc', 'philadelphia']),
  metro('chicago', 'Chicagoland', 'Chicago', 'Illinois', US, ['Evanston', 'Naperville'], ['indianapolis', 'detroit']),
  metro('austin', 'Austin', 'Austin', 'Texas', US, ['ATX', 'Round Rock'], ['san-antonio', 'houston', 'dallas-fort-worth']),
  metro('dallas-fort-worth', 'Dallas-Fort Worth', 'Dallas', 'Texas', US, ['DFW', 'Fort Worth', 'Plano', 'Irving', 'Frisco'], ['austin', 'houston']),
  metro('houston', 'Greater Houston', 'Houston', 'Texas', US, ['The Woodlands', 'Sugar Land'], ['austin', 'san-antonio']),
  metro('san-antonio', 'San Antonio', 'San Antonio', 'Texas', US, ['SATX'], ['austin', 'houston']),
  metro('denver', 'Denver', 'Denver', 'Colorado', US, ['Boulder', 'Denver Metro', 'Front Range'], ['salt-lake-city']),
  metro('phoenix', 'Phoenix', 'Phoenix', 'Arizona', US, ['Scottsdale', 'Tempe', 'Chandler', 'Mesa'], ['las-vegas', 'san-diego']),
  metro('salt-lake-city', 'Salt Lake City', 'Salt Lake City', 'Utah', US, ['SLC', 'Lehi', 'Provo', 'Silicon Slopes'], ['denver', 'las-vegas']),
  metro('las-vegas', 'Las Vegas', 'Las Vegas', 'Nevada', US, ['Vegas', 'Henderson'], ['los-angeles', 'phoenix']),
  metro('atlanta', 'Atlanta', 'Atlanta', 'Georgia', US, ['ATL', 'Alpharetta', 'Marietta'], ['charlotte', 'nashville']),
  metro('miami', 'Miami', 'Miami', 'Florida', US, ['South Florida', 'Fort Lauderdale', 'Miami-Dade', 'Boca Raton'], ['orlando', 'tampa']),
  metro('tampa', 'Tampa Bay', 'Tampa', 'Florida', US, ['St. Petersburg', 'Clearwater'], ['orlando', 'miami']),
  metro('orlando', 'Orlando', 'Orlando', 'Florida', US, ['Central Florida'], ['tampa', 'miami']),
  metro('charlotte', 'Charlotte', 'Charlotte', 'North Carolina', US, ['CLT', 'Charlotte Metro'], ['raleigh-durham', 'atlanta']),
  metro('raleigh-durham', 'Raleigh-Durham', 'Raleigh', 'North Carolina', US, ['Research Triangle', 'RTP', 'Durham', 'Chapel Hill', 'The Triangle'], ['charlotte']),
  metro('nashville', 'Nashville', 'Nashville', 'Tennessee', US, ['Franklin', 'Music City'], ['atlanta', 'indianapolis']),
  metro('minneapolis', 'Minneapolis-St. Paul', 'Minneapolis', 'Minnesota', US, ['Twin Cities', 'St. Paul', 'Saint Paul', 'MSP'], ['chicago']),
  metro('detroit', 'Metro Detroit', 'Detroit', 'Michigan', US, ['Ann Arbor', 'Dearborn'], ['columbus', 'chicago']),
  metro('columbus', 'Columbus', 'Columbus', 'Ohio', US, ['Central Ohio'], ['pittsburgh', 'indianapolis', 'detroit']),
  metro('pittsburgh', 'Pittsburgh', 'Pittsburgh', 'Pennsylvania', US, ['PGH'], ['columbus', 'philadelphia']),
  metro('st-louis', 'St. Louis', 'St. Louis', 'Missouri', US, ['Saint Louis', 'STL'], ['kansas-city', 'chicago', 'indianapolis']),
  metro('kansas-city', 'Kansas City', 'Kansas City', 'Missouri', US, ['KC', 'KCMO', 'Overland Park'], ['st-louis']),
  metro('indianapolis', 'Indianapolis', 'Indianapolis', 'Indiana', US, ['Indy', 'Carmel'], ['chicago', 'columbus']),
  // Canada
  metro('toronto', 'Greater Toronto Area', 'Toronto', 'Ontario', 'Canada', ['GTA', 'Mississauga', 'Markham', 'Waterloo'], ['ottawa', 'montreal']),
  metro('vancouver', 'Greater Vancouver', 'Vancouver', 'British Columbia', 'Canada', ['Metro Vancouver', 'Burnaby'], ['seattle', 'portland']),
  metro('montreal', 'Greater Montreal', 'Montreal', 'Quebec', 'Canada', ['Montréal', 'MTL', 'Laval'], ['ottawa', 'toronto']),
  metro('ottawa', 'Ottawa', 'Ottawa', 'Ontario', 'Canada', ['Kanata', 'Ottawa-Gatineau'], ['montreal', 'toronto']),
  // Europe
  metro('london', 'Greater London', 'London', 'England', 'United Kingdom', ['London UK', 'City of London', 'Canary Wharf'], ['dublin', 'amsterdam', 'paris']),
  metro('dublin', 'Dublin', 'Dublin', 'County Dublin', 'Ireland', ['Dublin City'], ['london']),
  metro('berlin', 'Berlin', 'Berlin', 'Berlin', 'Germany', ['Berlin Metropolitan Region'], ['munich', 'warsaw']),
  metro('munich', 'Munich', 'Munich', 'Bavaria', 'Germany', ['München', 'Muenchen'], ['zurich', 'berlin', 'milan']),
  metro('amsterdam', 'Amsterdam', 'Amsterdam', 'North Holland', 'Netherlands', ['Randstad', 'Amsterdam Area'], ['london', 'berlin', 'paris']),
  metro('paris', 'Paris', 'Paris', 'Île-de-France', 'France', ['Île-de-France', 'Ile-de-France', 'La Défense'], ['london', 'amsterdam']),
  metro('stockholm', 'Stockholm', 'Stockholm', 'Stockholm County', 'Sweden', ['Greater Stockholm'], ['berlin', 'warsaw']),
  metro('madrid', 'Madrid', 'Madrid', 'Community of Madrid', 'Spain', ['Comunidad de Madrid'], ['barcelona', 'lisbon']),
  metro('barcelona', 'Barcelona', 'Barcelona', 'Catalonia', 'Spain', ['BCN', 'Catalunya'], ['madrid', 'milan']),
  metro('zurich', 'Zurich', 'Zurich', 'Zurich', 'Switzerland', ['Zürich', 'Zuerich'], ['munich', 'milan']),
  metro('milan', 'Milan', 'Milan', 'Lombardy', 'Italy', ['Milano'], ['zurich', 'munich']),
  metro('warsaw', 'Warsaw', 'Warsaw', 'Masovian Voivodeship', 'Poland', ['Warszawa'], ['berlin']),
  metro('lisbon', 'Lisbon', 'Lisbon', 'Lisbon', 'Portugal', ['Lisboa'], ['madrid']),
  // India
  metro('bangalore', 'Bengaluru', 'Bengaluru', 'Karnataka', 'India', ['Bangalore', 'BLR', 'Bangalore Urban'], ['hyderabad', 'pune']),
  metro('hyderabad', 'Hyderabad', 'Hyderabad', 'Telangana', 'India', ['Secunderabad', 'Cyberabad', 'HITEC City'], ['bangalore', 'pune']),
  metro('mumbai', 'Mumbai', 'Mumbai', 'Maharashtra', 'India', ['Bombay', 'Navi Mumbai', 'Thane'], ['pune']),
  metro('pune', 'Pune', 'Pune', 'Maharashtra', 'India', ['Poona', 'Pimpri-Chinchwad'], ['mumbai', 'hyderabad']),
  metro('delhi-ncr', 'Delhi NCR', 'New Delhi', 'Delhi', 'India', ['Delhi', 'NCR', 'National Capital Region', 'Gurgaon', 'Gurugram', 'Noida'], ['mumbai']),
  // Asia-Pacific
  metro('singapore', 'Singapore', 'Singapore', 'Singapore', 'Singapore', ['SG'], ['bangalore', 'sydney']),
  metro('sydney', 'Greater Sydney', 'Sydney', 'New South Wales', 'Australia', ['NSW'], ['melbourne']),
  metro('melbourne', 'Greater Melbourne', 'Melbourne', 'Victoria', 'Australia', [], ['sydney']),
  metro('tokyo', 'Greater Tokyo', 'Tokyo', 'Tokyo', 'Japan', ['Yokohama', 'Kanto'], ['seoul']),
  metro('seoul', 'Seoul Capital Area', 'Seoul', 'Seoul', 'South Korea', ['Gangnam', 'Pangyo'], ['tokyo']),
  // Latin America
  metro('mexico-city', 'Mexico City', 'Mexico City', 'Mexico City', 'Mexico', ['CDMX', 'Ciudad de México'], ['houston', 'san-antonio']),
  metro('sao-paulo', 'Greater São Paulo', 'São Paulo', 'São Paulo', 'Brazil', ['Sampa'], ['buenos-aires']),
  metro('buenos-aires', 'Greater Buenos Aires', 'Buenos Aires', 'Buenos Aires', 'Argentina', ['CABA', 'Capital Federal'], ['sao-paulo']),
  metro('bogota', 'Bogotá', 'Bogotá', 'Bogotá D.C.', 'Colombia', [], ['miami', 'mexico-city']),
  // Middle East & Africa
  metro('dubai', 'Dubai', 'Dubai', 'Dubai', 'United Arab Emirates', ['Abu Dhabi', 'Dubai Internet City'], ['mumbai', 'delhi-ncr']),
  metro('lagos', 'Lagos', 'Lagos', 'Lagos State', 'Nigeria', ['Ikeja', 'Lekki', 'Victoria Island'], ['lisbon', 'madrid', 'london']),
];

/** Distinct countries of METROS, alphabetical. */
export const COUNTRIES: string[] = [...new Set(METROS.map((m) => m.country))].sort(compareText);

// ---------------------------------------------------------------------------------------------
// Seniority
// ---------------------------------------------------------------------------------------------

/** Typical years of experience (inclusive range) for each seniority. */
export const SENIORITY_YEARS: Record<Seniority, [number, number]> = {
  intern: [0, 1],
  junior: [0, 2],
  mid: [2, 5],
  senior: [5, 10],
  lead: [7, 14],
  manager: [6, 15],
  director: [10, 20],
  vp: [14, 25],
  cxo: [15, 30],
};

/**
 * Words that mark a seniority in a title, matched as whole words, case-insensitively.
 * Build titles with `buildTitle` (it knows which words go before or after the base title);
 * detect with `detectSeniority` (it checks the highest seniority first, so "Senior Director"
 * is a director and "Senior Manager" a manager). A title with none of these words is mid.
 */
export const SENIORITY_TITLE_WORDS: Record<Seniority, string[]> = {
  intern: ['Intern', 'Internship', 'Trainee', 'Student'],
  junior: ['Junior', 'Jr.', 'Associate', 'Graduate', 'Entry Level', 'Entry-Level'],
  mid: ['II', 'Intermediate', 'Mid-Level'],
  senior: ['Senior', 'Sr.', 'Sr', 'III'],
  lead: ['Lead', 'Staff', 'Principal', 'Team Lead', 'Tech Lead'],
  manager: ['Manager', 'Manager of', 'Senior Manager', 'Supervisor'],
  director: ['Director', 'Director of', 'Head of', 'Senior Director'],
  vp: ['VP', 'VP of', 'Vice President', 'Vice President of', 'SVP', 'EVP'],
  cxo: ['Chief', 'CEO', 'CTO', 'CFO', 'COO', 'CMO', 'CIO', 'CISO', 'CPO', 'CRO', 'CHRO', 'CDO', 'Founder', 'Co-Founder'],
};

// ---------------------------------------------------------------------------------------------
// Lookups (maps built once at module load)
// ---------------------------------------------------------------------------------------------

/** Case-, accent- and whitespace-insensitive key. */
function normKey(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
}

function industryKey(s: string): string {
  return normKey(s).replace(/\s*\/\s*/g, ' & ').replace(/ and /g, ' & ');
}

function compareText(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la < lb) return -1;
  if (la > lb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const FAMILY_BY_ID = new Map<string, RoleFamily>(ROLE_FAMILIES.map((f) => [normKey(f.id), f]));
const FAMILY_DEF_BY_ID = new Map<string, FamilyDef>(FAMILY_DEFS.map((f) => [f.id, f]));

const METRO_BY_KEY = new Map<string, Metro>();
for (const m of METROS) {
  for (const key of [m.id, m.label, m.city, ...m.aliases]) {
    const k = normKey(key);
    if (!METRO_BY_KEY.has(k)) METRO_BY_KEY.set(k, m);
  }
}

const INDUSTRY_BY_KEY = new Map<string, string>();
for (const name of INDUSTRIES) INDUSTRY_BY_KEY.set(industryKey(name), name);
for (const [alias, name] of Object.entries(INDUSTRY_ALIASES)) {
  const k = industryKey(alias);
  if (!INDUSTRY_BY_KEY.has(k)) INDUSTRY_BY_KEY.set(k, name);
}

const SKILL_BY_KEY = new Map<string, string>();
for (const name of SKILLS) SKILL_BY_KEY.set(normKey(name), name);
for (const [alias, name] of Object.entries(SKILL_ALIASES)) {
  const k = normKey(alias);
  if (!SKILL_BY_KEY.has(k)) SKILL_BY_KEY.set(k, name);
}

const INDUSTRIES_LOWER = INDUSTRIES.map((s) => s.toLowerCase());

/** Role family by id (case-insensitive). */
export function findFamily(id: string): RoleFamily | undefined {
  return FAMILY_BY_ID.get(normKey(id));
}

/** Metro by id, label, city or alias (case- and accent-insensitive). */
export function findMetro(idOrAlias: string): Metro | undefined {
  return METRO_BY_KEY.get(normKey(idOrAlias));
}

/** Canonical industry name for a spelling (case-insensitive; "and" = "&"; a few common aliases). */
export function canonicalIndustry(name: string): string | undefined {
  return INDUSTRY_BY_KEY.get(industryKey(name));
}

/** Canonical skill name for a spelling (case-insensitive; a few common aliases such as "k8s"). */
export function canonicalSkill(name: string): string | undefined {
  return SKILL_BY_KEY.get(normKey(name));
}

/** Industries containing `q` (case-insensitive): prefix matches first, then the rest, each alphabetical. */
export function searchIndustries(q: string | undefined, limit = 200): string[] {
  const n = Math.max(0, Math.floor(limit));
  const needle = (q ?? '').trim().toLowerCase();
  if (needle === '') return INDUSTRIES.slice(0, n);
  const prefix: string[] = [];
  const inner: string[] = [];
  for (let i = 0; i < INDUSTRIES.length; i++) {
    const at = INDUSTRIES_LOWER[i].indexOf(needle);
    if (at === 0) prefix.push(INDUSTRIES[i]);
    else if (at > 0) inner.push(INDUSTRIES[i]);
  }
  return prefix.concat(inner).slice(0, n);
}

// ---------------------------------------------------------------------------------------------
// Titles
// ---------------------------------------------------------------------------------------------

interface TitleTemplates {
  intern: string[];
  junior: string[];
  mid: string[];
  senior: string[];
  lead: string[];
}

const TITLE_PATTERNS = new Map<string, { prefix: TitleTemplates; fixed: Record<'manager' | 'director' | 'vp' | 'cxo', string[]>; area: string }>();
for (const f of FAMILY_DEFS) {
  TITLE_PATTERNS.set(f.id, {
    area: f.area,
    // '#' stands for the base title.
    prefix: {
      intern: f.internTitles ?? ['# Intern', `${f.area} Intern`],
      junior: (f.juniorWords ?? ['Junior']).map((w) => `${w} #`),
      mid: f.levels ? ['#', '#', '#', '# II'] : ['#'],
      senior: ['Senior #', 'Senior #', 'Sr. #'],
      lead: (f.leadWords ?? ['Lead']).map((w) => `${w} #`),
    },
    fixed: {
      manager: f.managerTitles ?? [`${f.area} Manager`, `Manager of ${f.area}`],
      director: f.directorTitles ?? [`Director of ${f.area}`, `Head of ${f.area}`, `Senior Director of ${f.area}`],
      vp: f.vpTitles ?? [`VP of ${f.area}`, `Vice President of ${f.area}`, `SVP of ${f.area}`],
      cxo: f.chiefs,
    },
  });
}

/**
 * A title for a seniority in a family, e.g. ('senior', 'software_engineering', 'Backend Engineer')
 * → "Senior Backend Engineer", ('director', 'software_engineering', …) → "Director of Engineering".
 * `variant` picks among the usual spellings (any integer; the same variant gives the same title).
 */
export function buildTitle(seniority: Seniority, familyId: string, baseTitle: string, variant = 0): string {
  const p = TITLE_PATTERNS.get(familyId) ?? TITLE_PATTERNS.get(FAMILY_DEF_BY_ID.get(normKey(familyId))?.id ?? '');
  const v = Math.abs(Math.floor(variant));
  if (!p) {
    if (seniority === 'mid') return baseTitle;
    if (seniority === 'intern') return `${baseTitle} Intern`;
    return `${SENIORITY_TITLE_WORDS[seniority][0]} ${baseTitle}`;
  }
  if (seniority === 'manager' || seniority === 'director' || seniority === 'vp' || seniority === 'cxo') {
    const list = p.fixed[seniority];
    return list[v % list.length];
  }
  const list = p.prefix[seniority];
  const t = list[v % list.length];
  const at = t.indexOf('#');
  return at < 0 ? t : t.slice(0, at) + baseTitle + t.slice(at + 1);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function wordsRegex(words: string[]): RegExp {
  const alt = [...words].sort((a, b) => b.length - a.length).map(escapeRegex).join('|');
  return new RegExp(`(?<![a-z0-9])(?:${alt})(?![a-z0-9])`, 'i');
}

/** Highest seniority first, so "Senior Director" is a director. */
const DETECT_ORDER: Seniority[] = ['cxo', 'vp', 'director', 'manager', 'lead', 'senior', 'junior', 'intern', 'mid'];
const SENIORITY_RES = DETECT_ORDER.map((s) => [s, wordsRegex(SENIORITY_TITLE_WORDS[s])] as const);

// Base titles that themselves contain a seniority word ("Product Manager") are removed before
// detection, so "Senior Product Manager" is senior and "Product Manager" is plain mid.
const BASE_TITLES_WITH_WORDS = FAMILY_DEFS.flatMap((f) => f.titles).filter((t) => SENIORITY_RES.some(([, re]) => re.test(t)));
const BASE_TITLES_RE = BASE_TITLES_WITH_WORDS.length > 0 ? new RegExp(wordsRegex(BASE_TITLES_WITH_WORDS).source, 'gi') : undefined;

/** Seniority a title states, or undefined when it names none (treat as mid). */
export function detectSeniority(title: string): Seniority | undefined {
  const t = BASE_TITLES_RE ? title.replace(BASE_TITLES_RE, ' ') : title;
  for (const [s, re] of SENIORITY_RES) if (re.test(t)) return s;
  return undefined;
}
